import ShoeMileage
import StrideContract
import StrideEvents
import StrideLedger

/// The shoes page's forms: add a shoe, choose the default, rename, retire or bring back a
/// shoe, and put runs on shoes. Each posts the JSON API's field names plus `csrf`; none
/// appears in a report or in the past.
enum ShoeForms {
    /// Adding a shoe and choosing the default.
    static func rackForms(_ content: ShoesPage.Content, _ render: RenderContext) -> String {
        guard render.showsForms else { return "" }
        let prefix = render.idPrefix
        var html = Shell.heading(render.level + 1, "Change the rack")
        var fields = FormMarkup.input("name", label: "Name", id: prefix + "add-name", required: true, extra: "maxlength=\"200\"")
        fields += FormMarkup.input("brand", label: "Brand", id: prefix + "add-brand", extra: "maxlength=\"200\"")
        fields += FormMarkup.input(
            "startKilometers", label: "Starting km", id: prefix + "add-start", type: "number",
            extra: "min=\"0\" max=\"5000\" step=\"0.01\" value=\"0\"")
        fields += FormMarkup.input(
            "goalKilometers", label: "Goal km", id: prefix + "add-goal", type: "number", extra: "min=\"10\" max=\"5000\" step=\"1\"")
        fields +=
            "<label class=\"check\" for=\"\(prefix)add-default\"><input id=\"\(prefix)add-default\" name=\"isDefault\" type=\"checkbox\" value=\"true\">New runs go to it (default)</label>"
        html += FormMarkup.form(.addShoe, render: render, legend: "Add a shoe", fields: fields, button: "Add")
        let active = content.shoes.filter { !$0.shoe.isRetired }
        if !active.isEmpty {
            let current = content.shoes.first { $0.isDefault }.map { ShoeID.text($0.shoe.id) } ?? ""
            let options = [("", "No default shoe")] + active.map { (ShoeID.text($0.shoe.id), $0.shoe.name) }
            let field = FormMarkup.select("shoe", label: "Default shoe", id: prefix + "default-shoe", options: options, selected: current)
            html += FormMarkup.form(.defaultShoe, render: render, legend: "Choose the default shoe", fields: field, button: "Save")
        }
        return html
    }

    /// A shoe's own forms: rename, retire or bring back, make it the default.
    static func shoeForms(_ view: ShoeView, _ render: RenderContext) -> String {
        guard render.showsForms else { return "" }
        let id = ShoeID.text(view.shoe.id)
        let prefix = render.idPrefix + "shoe-" + id
        var html = "<details><summary>Change \(view.shoe.name.html)</summary>"
        let rename =
            FormMarkup.hidden("shoe", id)
            + FormMarkup.input(
                "name", label: "New name", id: prefix + "-name", required: true, extra: "maxlength=\"200\" value=\"\(view.shoe.name.html)\"")
        html += FormMarkup.form(.renameShoe, render: render, legend: nil, fields: rename, button: "Rename", className: "")
        html += "<div class=\"inline-forms\">"
        html += FormMarkup.form(
            view.shoe.isRetired ? .unretireShoe : .retireShoe, render: render, legend: nil, fields: FormMarkup.hidden("shoe", id),
            button: view.shoe.isRetired ? "Bring back" : "Retire", className: "")
        if !view.isDefault, !view.shoe.isRetired {
            html += FormMarkup.form(
                .defaultShoe, render: render, legend: nil, fields: FormMarkup.hidden("shoe", id), button: "Make default", className: "")
        }
        return html + "</div></details>"
    }

    /// Runs on no shoe, each with a form to put it on one and one to exclude it from
    /// automatic assignment.
    static func unassigned(_ content: ShoesPage.Content, _ render: RenderContext) -> String {
        var html = Shell.heading(render.level + 1, "Runs on no shoe")
        guard !content.unassigned.isEmpty else { return html + "<p class=\"note\">Every run is on a shoe.</p>" }
        let active = content.shoes.filter { !$0.shoe.isRetired }
        html += "<ul class=\"notes\">"
        for workout in content.unassigned {
            let id = Ledger.workoutID(workout.id)
            html += "<li id=\"\(render.idPrefix)run-\(id)\">" + describe(workout, content.time)
            if workout.isRunExcluded { html += " <span class=\"badge\">excluded from shoes</span>" }
            if render.showsForms {
                html += "<div class=\"inline-forms\">"
                if !active.isEmpty {
                    let fields =
                        FormMarkup.hidden("workout", id)
                        + FormMarkup.select(
                            "shoe", label: "Shoe", id: render.idPrefix + "assign-" + id,
                            options: active.map { (ShoeID.text($0.shoe.id), $0.shoe.name) })
                    html += FormMarkup.form(.assign, render: render, legend: nil, fields: fields, button: "Put on shoe", className: "")
                }
                if !workout.isRunExcluded {
                    html += FormMarkup.form(
                        .exclude, render: render, legend: nil, fields: FormMarkup.hidden("workout", id), button: "Exclude", className: "")
                }
                html += "</div>"
            }
            html += "</li>"
        }
        return html + "</ul>"
    }

    /// The latest runs on shoes, each with a form to move it and one to take it off.
    static func recent(_ content: ShoesPage.Content, _ render: RenderContext) -> String {
        guard !content.recent.isEmpty else { return "" }
        let names = Dictionary(content.shoes.map { ($0.shoe.id, $0.shoe.name) }, uniquingKeysWith: { first, _ in first })
        let active = content.shoes.filter { !$0.shoe.isRetired }
        var html = Shell.heading(render.level + 1, "Latest runs on shoes")
        html += "<ul class=\"notes\">"
        for workout in content.recent {
            let id = Ledger.workoutID(workout.id)
            let shoeName = workout.shoe.flatMap { names[$0] } ?? "?"
            html += "<li>" + describe(workout, content.time) + " — on <strong>\(shoeName.html)</strong>"
            if let origin = workout.origin { html += " (\(origin.description.html))" }
            if render.showsForms {
                html += "<div class=\"inline-forms\">"
                let others = active.filter { $0.shoe.id != workout.shoe }
                if !others.isEmpty {
                    let fields =
                        FormMarkup.hidden("workout", id)
                        + FormMarkup.select(
                            "shoe", label: "Move to", id: render.idPrefix + "move-" + id,
                            options: others.map { (ShoeID.text($0.shoe.id), $0.shoe.name) })
                    html += FormMarkup.form(.assign, render: render, legend: nil, fields: fields, button: "Move", className: "")
                }
                html += FormMarkup.form(
                    .unassign, render: render, legend: nil, fields: FormMarkup.hidden("workout", id), button: "Take off", className: "")
                html += "</div>"
            }
            html += "</li>"
        }
        return html + "</ul>"
    }

    /// `2024-05-01 07:00 · 5.02 km · Apple Watch (id 3227496f…)`, escaped.
    static func describe(_ workout: Workout, _ time: LocalTime) -> String {
        let distance = workout.distanceMeters == nil ? "distance unknown" : Format.kilometers(workout.kilometers)
        let text = Shell.short(time.format(workout.start)) + " · " + distance + " · " + workout.sourceName
        return text.html + " <code>\(Ledger.workoutID(workout.id))</code>"
    }
}
