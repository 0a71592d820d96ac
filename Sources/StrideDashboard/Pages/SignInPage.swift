/// The sign-in page: one form taking a device's token (from `stride tokens add`), posted
/// to `/signin`. The token field is a password field and is never filled in.
enum SignInPage {
    static func render(error: String?, links: Links) -> String {
        var main = "<div class=\"signin\">" + Shell.heading(1, "Sign in")
        main += "<p class=\"lead\">Paste a device's token, as <code>stride tokens add NAME</code> printed it.</p>"
        if let error, !error.isEmpty { main += "<p class=\"error\" role=\"alert\">\(error.html)</p>" }
        let path = links.action(.signIn) ?? FormAction.signIn.rawValue
        main += "<form class=\"panel\" method=\"post\" action=\"\(path.html)\"><fieldset><legend>Token</legend>"
        main += "<label for=\"signin-token\" class=\"wide\">Token<input id=\"signin-token\" name=\"token\" type=\"password\" required "
        main += "autocomplete=\"current-password\" spellcheck=\"false\" autocapitalize=\"off\"></label>"
        main += "<button type=\"submit\">Sign in</button></fieldset></form></div>"
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"referrer\" content=\"same-origin\">"
        html += "<title>Sign in · Stride</title><style>\(Stylesheet.css)</style></head><body><main id=\"main\">\(main)</main></body></html>\n"
        return html
    }
}
