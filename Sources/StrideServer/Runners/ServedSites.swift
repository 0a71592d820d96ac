import StrideLedger

/// Where the server finds the site a request is for: the one ledger's, or on a shared server
/// (`stride serve --ledgers DIR`) the site of the runner its token or session names, opened at
/// that runner's first request (``Runners``). The guards ask it once per request and put the
/// site into the request's context.
struct ServedSites: Sendable {
    enum Served: Sendable {
        case one(RunnerSite)
        case runners(Runners)
    }

    let served: Served

    /// The site a token is for: the one ledger's; on a shared server, the site of the runner
    /// the token names (nil when it names none, or a runner without a ledger, or when that
    /// ledger's gate refuses the token).
    /// - Throws: ``RunnerUnavailable`` when the runner's ledger cannot be opened.
    func site(presenting token: RunnerToken) async throws -> RunnerSite? {
        switch served {
        case .one(let site): return site
        case .runners(let runners):
            guard let runner = token.runner else { return nil }
            return try await site(of: runner, in: runners, presenting: token.token)
        }
    }

    /// The site a session was opened for: its runner's.
    /// - Throws: ``RunnerUnavailable`` when the runner's ledger cannot be opened.
    func site(ofSession session: Sessions.Session) async throws -> RunnerSite? {
        switch served {
        case .one(let site): return session.runner == site.runner ? site : nil
        case .runners(let runners):
            guard let runner = session.runner else { return nil }
            return try await site(of: runner, in: runners, presenting: nil)
        }
    }

    /// Whether this server holds the runner's ledger (a server of one ledger: any runner).
    func serves(runner: String) -> Bool {
        switch served {
        case .one: true
        case .runners(let runners): runners.folder.holdsLedger(of: runner)
        }
    }

    /// The sites open now: every one a `/metrics` scrape measures.
    var openSites: [RunnerSite] {
        switch served {
        case .one(let site): [site]
        case .runners(let runners): runners.openSites
        }
    }

    /// The figures of every open site's ledger, for `/metrics`: the one ledger's (a failure
    /// to read it is the scrape's); on a shared server each that can be read now.
    /// - Throws: a storage failure of the one ledger.
    func figures() throws -> [LedgerFigures] {
        switch served {
        case .one(let site): [try LedgerFigures(of: site.api.worker.ledger)]
        case .runners(let runners): runners.openSites.compactMap { try? LedgerFigures(of: $0.api.worker.ledger) }
        }
    }

    /// A runner's site; a ledger that cannot be opened (damaged, unreadable) is the operator's
    /// to see in the log, once (``Runners``), and its runner's clients get 503, the others
    /// nothing.
    private func site(of runner: String, in runners: Runners, presenting token: String?) async throws -> RunnerSite? {
        try await runners.site(named: runner, presenting: token)
    }
}
