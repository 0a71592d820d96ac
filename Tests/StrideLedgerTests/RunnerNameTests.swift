import StrideLedger
import Testing

@Suite("A runner's name, and the token that names the runner")
struct RunnerNameTests {
    @Test(
        "names a folder and begins a token: lowercase letters, digits, - and _, 1 to 40, not starting with - or _",
        arguments: [
            ("", nil), ("  ", nil), ("marie", "marie"), (" marie\n", "marie"), ("m", "m"), ("7", "7"), ("anne-marie_2", "anne-marie_2"),
            ("Marie", nil), ("marie.b", nil), ("-marie", nil), ("_marie", nil), (".", nil), ("..", nil), (".hidden", nil), ("a/b", nil),
            ("élodie", nil), ("a b", nil), (String(repeating: "a", count: 40), String(repeating: "a", count: 40)),
            (String(repeating: "a", count: 41), nil),
        ] as [(String, String?)])
    func names(text: String, kept: String?) {
        switch RunnerName.check(text) {
        case .success(let name): #expect(name == kept)
        case .failure(let refusal): #expect(kept == nil, "\(refusal.problem)")
        }
    }

    @Test(
        "a presented token splits at its first dot when a runner's name comes before it",
        arguments: [
            ("marie.stride_ab", "marie", "stride_ab"), ("stride_ab", nil, "stride_ab"), ("bob.marie.stride_ab", "bob", "marie.stride_ab"),
            ("Marie.stride_ab", nil, "Marie.stride_ab"), (".stride_ab", nil, ".stride_ab"), ("marie.", "marie", ""),
            ("test-token", nil, "test-token"),
        ] as [(String, String?, String)])
    func tokens(presented: String, runner: String?, token: String) {
        let parsed = RunnerToken(presented: presented)
        #expect(parsed.runner == runner)
        #expect(parsed.token == token)
    }
}
