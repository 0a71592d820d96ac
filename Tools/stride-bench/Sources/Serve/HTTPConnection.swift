import Foundation
import Glibc

/// A request as the benchmark's clients send it.
struct HTTPCall: Sendable {
    var method: String
    /// The path with its query, e.g. `/v1/daily?from=2024-05-01&to=2024-05-07`.
    var target: String
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    /// The route it counts under in the report: the path without the query.
    var route: String { String(target.prefix { $0 != "?" }) }
}

/// An answer: the status, the headers (names lowercased) and the body.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// One blocking HTTP/1.1 keep-alive connection to a loopback port, for one client thread.
///
/// Blocking sockets, one thread a client, rather than an event-loop client: the client adds
/// a `write` and a `read` or two per request and nothing else, so what is measured is the
/// server; and the same client drives the Hummingbird "hello" limit and Stride alike.
final class HTTPConnection {
    private let port: Int
    private var socket: Int32 = -1
    /// Bytes read past the answer before (the start of nothing, on a keep-alive connection).
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(port: Int) {
        self.port = port
    }

    deinit { disconnect() }

    /// Sends `call` and reads its answer, connecting first when no connection is open.
    /// - Throws: ``BenchFailure`` when the connection fails or the answer is not HTTP.
    func send(_ call: HTTPCall) throws -> HTTPAnswer {
        if socket < 0 { try connect() }
        do {
            try write(Self.encode(call))
            let answer = try readAnswer()
            if answer.headers["connection"]?.lowercased() == "close" { disconnect() }
            return answer
        } catch {
            disconnect()
            throw error
        }
    }

    /// Closes the connection; the next call opens a new one.
    func disconnect() {
        if socket >= 0 { close(socket) }
        socket = -1
        pending = []
    }

    private func connect() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchFailure("cannot connect to 127.0.0.1:\(port): \(reason)")
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A server that stops answering fails the request instead of hanging the benchmark.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        socket = descriptor
    }

    private static func encode(_ call: HTTPCall) -> [UInt8] {
        var head = "\(call.method) \(call.target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in call.headers { head += "\(name): \(value)\r\n" }
        if call.method != "GET" || !call.body.isEmpty { head += "Content-Length: \(call.body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + call.body
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw BenchFailure("send: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Reads more bytes into `pending`; false at the end of the stream.
    private func fill() throws -> Bool {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            throw BenchFailure("recv: \(String(cString: strerror(errno)))")
        }
    }

    private func readAnswer() throws -> HTTPAnswer {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: pending)
            if headEnd == nil, try !fill() { throw BenchFailure("the server closed the connection before answering") }
        }
        guard let headEnd else { throw BenchFailure("no answer") }
        let head = String(decoding: pending[0..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw BenchFailure("not an HTTP answer: \(head.prefix(80))") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body: [UInt8]
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            body = try take(length)
        } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunked()
        } else if status == 204 || status == 304 {
            body = []
        } else {
            while try fill() {}
            body = pending
            pending = []
            disconnect()
        }
        return HTTPAnswer(status: status, headers: headers, body: body)
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { throw BenchFailure("the server closed the connection mid-answer") }
        }
        let taken = Array(pending[0..<count])
        pending.removeFirst(count)
        return taken
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: pending) {
                let line = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                return line
            }
            guard try fill() else { throw BenchFailure("the server closed the connection mid-answer") }
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { throw BenchFailure("a bad chunk size: \(sizeLine)") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            body += try take(size)
            _ = try readLine()
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return start }
        }
        return nil
    }
}
