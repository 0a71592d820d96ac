"""An independent reading of FIT files for the training log's figures (issue 35).

Reads each file with fitdecode (PyPI), not Stride's decoder, and computes from every
session's records, by the training log's definitions as DESIGN.md and the README state them
(not by Stride's code):

- best efforts over 400 m, 1 km, 1 mile, 5 km, 10 km, the half and the marathon: the least
  elapsed time between two moments with that distance between them, the distance
  interpolated linearly between records, never across a stretch faster than 12.5 m/s;
- seconds in the five zones of percent of a 190 maximum, and Banister's TRIMP with resting
  50: each heart-rate reading (20 to 300) holds until the next, at most 10 s.

Prints one JSON object: {"<file>": [{"session": "1 of 1", "efforts": {...}, "zones": [...],
"trimp": x, "readings": n}, ...]}. Sessions whose records count from the device's power-on
(no absolute time) are left out.
"""

import datetime
import json
import math
import sys

import fitdecode

MAXIMUM, RESTING, FASTEST, LONGEST_HOLD = 190.0, 50.0, 12.5, 10.0
DISTANCES = [("400m", 400.0), ("1k", 1000.0), ("1mi", 1609.344), ("5k", 5000.0), ("10k", 10000.0), ("half", 21097.5), ("marathon", 42195.0)]


def field(frame, name):
    return frame.get_value(name, fallback=None) if frame.has_field(name) else None


def read(path):
    records, sessions = [], []
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
        try:
            for frame in reader:
                if frame.frame_type != fitdecode.FIT_FRAME_DATA:
                    continue
                if frame.name == "record":
                    time = field(frame, "timestamp")
                    if isinstance(time, datetime.datetime):
                        records.append((time.timestamp(), field(frame, "distance"), field(frame, "heart_rate")))
                elif frame.name == "session":
                    sessions.append((field(frame, "start_time"), field(frame, "timestamp"), field(frame, "total_elapsed_time"), field(frame, "total_timer_time")))
        except fitdecode.FitError:
            pass  # a file cut short: what came before it stands, as in Stride
    return records, sessions


def window(records, start, end):
    """The records from start through end plus a second, each instant once, in time order."""
    kept, last = [], None
    for time, metres, heart in records:
        if start <= time <= end + 1 and (last is None or time > last):
            kept.append((time - start, metres, heart))
            last = time
    return kept


def best(readings, target):
    times, distances = [], []
    for seconds, metres, _ in readings:
        if metres is None:
            continue
        times.append(seconds)
        distances.append(max(metres, distances[-1]) if distances else metres)
    if len(times) < 2 or distances[-1] - distances[0] < target:
        return None
    jump = [False] * (len(times) - 1)
    for k in range(len(times) - 1):
        covered, took = distances[k + 1] - distances[k], times[k + 1] - times[k]
        jump[k] = covered > 0 and (took <= 0 or covered / took > FASTEST)
    jumps = [0]
    for k in range(len(jump)):
        jumps.append(jumps[-1] + (1 if jump[k] else 0))

    def at(distance, k):  # the moment the distance was reached within segment k
        span = distances[k + 1] - distances[k]
        if span <= 0:
            return times[k]
        return times[k] + (distance - distances[k]) / span * (times[k + 1] - times[k])

    fastest = None
    # Every record as an end: walk back to the segment where the distance was target less.
    k = 0
    for end in range(len(times)):
        goal = distances[end] - target
        if goal < distances[0]:
            continue
        while k + 1 < end and distances[k + 1] <= goal:
            k += 1
        begin = at(goal, k)
        if jumps[end] - jumps[k] == 0 and times[end] - begin > 0:
            fastest = min(fastest, times[end] - begin) if fastest is not None else times[end] - begin
    # Every record as a start.
    k = 0
    for start in range(len(times)):
        goal = distances[start] + target
        if goal > distances[-1]:
            continue
        k = max(k, start)
        while k < len(times) - 1 and distances[k] < goal:
            k += 1
        finish = at(goal, k - 1) if k > start else times[k]
        if jumps[k] - jumps[start] == 0 and finish - times[start] > 0:
            fastest = min(fastest, finish - times[start]) if fastest is not None else finish - times[start]
    return fastest


def heart(readings):
    beats = [(seconds, float(h)) for seconds, _, h in readings if h is not None and 20 <= h <= 300]
    zones, trimp = [0.0] * 5, 0.0
    for index, (seconds, rate) in enumerate(beats):
        hold = min(LONGEST_HOLD, beats[index + 1][0] - seconds) if index + 1 < len(beats) else 0.0
        if hold <= 0:
            continue
        percent = rate / MAXIMUM * 100
        if percent >= 50:
            zones[min(4, int(percent // 10) - 5)] += hold
        reserve = min(1.0, max(0.0, (rate - RESTING) / (MAXIMUM - RESTING)))
        trimp += hold / 60 * reserve * 0.64 * math.exp(1.92 * reserve)
    return zones, trimp


def main(paths):
    out = {}
    for path in paths:
        records, sessions = read(path)
        results = []
        for index, (start, stamp, elapsed, timer) in enumerate(sessions):
            if not isinstance(start, datetime.datetime):
                if isinstance(stamp, datetime.datetime) and elapsed is not None:
                    start = stamp - datetime.timedelta(seconds=round(elapsed))
                else:
                    continue
            begin = start.timestamp()
            end = begin + (elapsed if elapsed is not None else (timer or 0))
            readings = window(records, begin, end)
            if len(readings) < 2:
                continue
            zones, trimp = heart(readings)
            efforts = {name: best(readings, metres) for name, metres in DISTANCES}
            results.append({
                "session": f"{index + 1} of {len(sessions)}", "readings": len(readings),
                "efforts": {k: v for k, v in efforts.items() if v is not None}, "zones": zones, "trimp": trimp,
            })
        out[path] = results
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
