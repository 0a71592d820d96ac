import Hummingbird
import StrideContract
import StrideEvents

/// A JSON answer printed as the contract prints it (keys in order, the same bytes as the
/// command line's `--json`).
struct JSONAnswer: ResponseGenerator {
    var value: JSONValue
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields = [:]

    init(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.value = value
        self.status = status
        self.headers = headers
    }

    init(_ document: some ContractDocument, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.init(document.json, status: status, headers: headers)
    }

    func response(from request: Request, context: some RequestContext) -> Response { response }

    /// The answer as a response.
    var response: Response {
        var bytes = value.bytes
        bytes.append(UInt8(ascii: "\n"))
        let buffer = ByteBuffer(bytes: bytes)
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .contentLength: String(buffer.readableBytes)]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: buffer))
    }
}
