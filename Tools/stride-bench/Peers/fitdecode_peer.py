"""The peer for the FIT benchmark: fitdecode (Python, MIT) reads every FIT file given.

Each file is read whole, every frame decoded, its sessions gathered, leniently (a definition
with a misaligned field is read as fitdecode's own lenient mode reads it; a file it cannot
finish is counted as failed). Prints one JSON object: the seconds the reading took (the
interpreter's start and the import left out), the files, those that failed, the sessions.
Run by stride-bench."""
import json, sys, time

import fitdecode


def read(path):
    sessions = 0
    with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.WARN,
                             error_handling=fitdecode.ErrorHandling.WARN) as reader:
        for frame in reader:
            if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "session":
                sessions += 1
    return sessions


def main():
    files = sys.argv[1:]
    sessions = failed = 0
    began = time.perf_counter()
    for path in files:
        try:
            sessions += read(path)
        except Exception:
            failed += 1
    seconds = time.perf_counter() - began
    print(json.dumps({"seconds": seconds, "files": len(files), "failed": failed, "sessions": sessions}))


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore")
    main()
