"""The peer for the event-log benchmark: the Python package `eventsourcing` on SQLite.

Appends health-sample-like events to aggregates, in batches (one save per batch) and one per
commit, then replays them; prints one JSON object of rates. Run by stride-bench."""
import json, os, sys, tempfile, time

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class SampleStream(Aggregate):
    @event("Created")
    def __init__(self):
        self.count = 0

    @event("Recorded")
    def record(self, health_type, value, unit, start, end, source):
        self.count += 1


def fresh_app(folder, name):
    os.environ["PERSISTENCE_MODULE"] = "eventsourcing.sqlite"
    os.environ["SQLITE_DBNAME"] = os.path.join(folder, name + ".sqlite")
    return Application()


def record(stream, index):
    stream.record("HKQuantityTypeIdentifierHeartRate", 60.0 + index % 40, "count/min",
                  1700000000 + index * 60, 1700000000 + index * 60, "Apple Watch")


def main():
    events, batch, singles = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    folder = tempfile.mkdtemp(prefix="stride-bench-eventsourcing-")
    app = fresh_app(folder, "batched")
    ids = []
    began = time.perf_counter()
    written = 0
    while written < events:
        stream = SampleStream()  # the creation event counts as one of the batch
        for index in range(min(batch, events - written) - 1):
            record(stream, written + index)
        app.save(stream)
        ids.append(stream.id)
        written += min(batch, events - written)
    batched_seconds = time.perf_counter() - began

    began = time.perf_counter()
    replayed = 0
    for stream_id in ids:
        replayed += app.repository.get(stream_id).count + 1
    replay_seconds = time.perf_counter() - began

    app = fresh_app(folder, "single")
    stream = SampleStream()
    app.save(stream)
    began = time.perf_counter()
    for index in range(singles):
        record(stream, index)
        app.save(stream)
    single_seconds = time.perf_counter() - began

    print(json.dumps({
        "batchedAppendPerSecond": events / batched_seconds,
        "replayPerSecond": replayed / replay_seconds,
        "singleAppendPerSecond": singles / single_seconds,
    }))


if __name__ == "__main__":
    main()
