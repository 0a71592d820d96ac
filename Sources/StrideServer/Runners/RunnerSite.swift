import StrideLedger

/// Everything a server holds for one ledger: its API, its dashboard and its token check. A
/// server of one ledger has one site; a shared server has one per runner, opened at the
/// runner's first request (``Runners``). The routes are the server's, one table for every
/// site: a guard finds the request's site (``ServedSites``) and its handler is given it.
struct RunnerSite: Sendable {
    /// The runner, on a shared server; nil on a server of one ledger.
    let runner: String?
    let api: StrideAPI
    let dashboard: DashboardSite
    /// Which device a presented token belongs to in this ledger.
    let tokens: TokenCheck

    /// The site of `worker`'s ledger. `isServed` says whether the runner is still served (not
    /// removed): every token check asks it first.
    /// - Throws: when the ledger's folder for uploads cannot be made.
    init(
        runner: String?, worker: LedgerWorker, settings: ServerSettings, streams: Quota, sessions: Sessions,
        isServed: @escaping @Sendable () -> Bool = { true }
    ) throws {
        self.runner = runner
        api = try StrideAPI(
            worker: worker, settings: settings, streams: streams,
            streamShare: runner == nil ? settings.maxEventStreams : settings.eventStreamsPerRunner)
        dashboard = DashboardSite(api: api, sessions: sessions)
        // A token names this ledger's runner, or no runner; on a server of one ledger, a name
        // must be the ledger folder's (a runner's ledger served alone).
        let owner = runner ?? RunnersFolder.runner(ofLedgerAt: worker.ledger.path)?.name
        tokens = TokenCheck(worker: worker, owner: owner, isServed: isServed)
    }
}
