import Foundation

extension BenchClient {
    /// A push of a day of watch data: mostly a day never pushed, sometimes one this client
    /// pushed before, unchanged (the app re-sends the last day): that one must append nothing.
    mutating func push() {
        let isResend = !pushedDays.isEmpty && uniform(100) < 10
        let day = isResend ? pushedDays[uniform(pushedDays.count)] : target.nextPushDay()
        let call = target.push(day: day)
        let route = "POST " + call.target + (isResend ? ", a day sent before" : "")
        guard let answer = write(.push, call, detail: String(day), route: route, expecting: 200...200), answer.status == 200 else { return }
        pushedDays.append(day)
        if isResend, Self.integer("newEvents", in: answer) != 0 {
            record.problems.append("pushing \(WatchDay.civilText(day)) again unchanged appended events: \(answer.text.prefix(200))")
        }
    }

    /// An action dated in the history: a check-in, a journal entry, a spend, a new shoe (now
    /// and then a name taken, which is refused), or an assignment (refused when the run is
    /// on that shoe already).
    mutating func act() {
        let day = historyDay()
        let at = "\(day)T10:00:00Z"
        let number = target.nextRequest()
        let chance = uniform(100)
        switch chance {
        case 0..<20:
            _ = write(.checkin, Self.post("/v1/checkin", ["at": at]), detail: day, route: "POST /v1/checkin")
        case 20..<50:
            let text = "bench entry \(number) from client \(index)"
            _ = write(.journal, Self.post("/v1/journal", ["text": text, "at": at]), detail: text, route: "POST /v1/journal")
        case 50..<70:
            let reason = "bench spend \(number) from client \(index)"
            let call = Self.post("/v1/points/spend", ["points": 1 + uniform(40), "reason": reason, "at": at])
            _ = write(.spend, call, detail: reason, route: "POST /v1/points/spend")
        case 70..<80:
            let isTaken = !shoeNames.isEmpty && uniform(4) == 0
            let name = isTaken ? shoeNames[uniform(shoeNames.count)] : "Bench \(number)-\(index)"
            if let answer = write(.shoe, Self.post("/v1/shoes", ["name": name, "at": at]), detail: name, route: "POST /v1/shoes"),
                answer.status == 201
            {
                shoeNames.append(name)
            }
        default:
            guard !target.workouts.isEmpty, !target.shoes.isEmpty else { return }
            let workout = target.workouts[uniform(target.workouts.count)]
            let shoe = target.shoes[uniform(target.shoes.count)]
            _ = write(
                .assign, Self.post("/v1/assign", ["workout": workout, "shoe": shoe, "at": at]), detail: workout + " " + shoe, route: "POST /v1/assign"
            )
        }
    }

    /// A POST with a JSON body.
    static func post(_ path: String, _ fields: [String: Any]) -> HTTPCall {
        let body = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return HTTPCall(method: "POST", target: path, headers: [("Content-Type", "application/json")], body: Array(body))
    }

    /// An integer member of a JSON answer.
    static func integer(_ name: String, in answer: HTTPAnswer) -> Int? {
        ((try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])?[name] as? Int
    }
}
