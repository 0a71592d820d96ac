import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import StrideContract
import StrideEvents
import StrideLedger

extension StrideAPI {
    /// How often a stream looks for new events: other processes may append too, so the log is
    /// what is watched, not this server's own writes.
    static let streamPollMilliseconds = 250
    /// A comment line this often keeps proxies and phones from closing a quiet stream, and
    /// finds a client that went away: the write to its closed connection fails, and the
    /// stream's slot is free within a second or so.
    static let streamKeepAliveSeconds = 1
    /// The sequences a stream may start after: a log holds at most `Int.max` events.
    static let sequences = 0...Int.max
    /// `after`: where a stream starts.
    static let streamAfter = Endpoint.Field.integer(
        "after", "the last sequence already seen (default: the log's last: new events only)", in: sequences)

    /// `GET /v1/events?after=SEQ`: committed events as Server-Sent Events, each with its
    /// sequence as its id, so a client that reconnects with `Last-Event-ID` misses nothing.
    /// The token is checked again before every batch and keep-alive: a stream ends when its
    /// token is revoked or its runner removed.
    static var eventStreamEndpoint: Endpoint {
        Endpoint(
            method: .get, path: "/v1/events",
            summary: "Committed events as Server-Sent Events (`text/event-stream`), from after a sequence; resumable with Last-Event-ID.",
            query: [Self.streamAfter],
            answer: .eventStream
        ) { api, request, context in
            let query = QueryParameters(request: request)
            // Both are sequences, so both stop at the largest a log can hold (Int.max): the stream
            // counts on from them.
            let resumed = try request.headers[.lastEventID].map {
                try UInt64(QueryParameters.wholeNumber($0, named: "Last-Event-ID", in: 0...Int.max))
            }
            let given = try query.integer(Self.streamAfter).map(UInt64.init)
            let start: UInt64
            if let known = resumed ?? given { start = known } else { start = try await api.worker.run { try $0.lastSequence() } }
            let (worker, streams, ownStreams, isStillAuthorized) = (api.worker, api.streams, api.ownStreams, context.isStillAuthorized)
            guard ownStreams.take() else {
                throw APIError(
                    .serviceUnavailable, "\(ownStreams.limit) event streams of this ledger are open already; close one or try again later",
                    headers: [.retryAfter: "30"])
            }
            guard streams.take() else {
                ownStreams.giveBack()
                throw APIError(
                    .serviceUnavailable, "\(streams.limit) event streams are open already; close one or try again later",
                    headers: [.retryAfter: "30"])
            }
            let body = ResponseBody { writer in
                defer { ownStreams.giveBack(alongWith: streams) }
                try await Self.stream(from: start, of: worker, to: &writer, while: isStillAuthorized)
                try await writer.finish(nil)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .connection: "keep-alive"], body: body)
        }
    }

    /// Writes the events after `start` as they are committed, until the client goes away, the
    /// server stops, or `isStillAuthorized` says no before a write.
    private static func stream(
        from start: UInt64, of worker: LedgerWorker, to writer: inout any ResponseBodyWriter,
        while isStillAuthorized: @Sendable () async throws -> Bool
    ) async throws {
        var cursor = start
        var quietSince = ContinuousClock.now
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let after = cursor
            let (events, time) = try await worker.run { ledger in
                (try ledger.events(from: after + 1, limit: 500, type: nil), LocalTime(ledger))
            }
            guard let last = events.last else {
                if ContinuousClock.now - quietSince >= .seconds(streamKeepAliveSeconds) {
                    guard try await isStillAuthorized() else { return }
                    try await writer.write(ByteBuffer(string: ":\n\n"))
                    quietSince = .now
                }
                try await Task.sleep(for: .milliseconds(streamPollMilliseconds))
                continue
            }
            guard try await isStillAuthorized() else { return }
            var text = ""
            for event in events {
                text += "id: \(event.sequence)\nevent: \(event.event.typeName)\ndata: \(LogDocument.json(of: event, time: time).text)\n\n"
            }
            try await writer.write(ByteBuffer(string: text))
            cursor = last.sequence
            quietSince = .now
        }
    }
}

extension HTTPField.Name {
    /// `Last-Event-ID`: the id of the last event a reconnecting stream client saw.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
