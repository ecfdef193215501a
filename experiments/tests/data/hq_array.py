"""Submits one command as an N-task HyperQueue array on a local cluster and waits.

Usage: hq_array.py SERVER_DIR N COMMAND...   (each task gets HQ_TASK_ID = 0..N-1)
Exits non-zero when any task fails, printing the failed tasks' stderr.
"""
import sys
from pathlib import Path

from hyperqueue import Job, LocalCluster
from hyperqueue.cluster import WorkerConfig


def main():
    server_dir, n, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    logs = Path(server_dir) / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with LocalCluster(server_dir) as cluster:
        cluster.start_worker(WorkerConfig(cores=2))
        client = cluster.client()
        job = Job()
        for i in range(n):
            job.program(
                command,
                stdout=str(logs / f"{i}.out"),
                stderr=str(logs / f"{i}.err"),
            )
        submitted = client.submit(job)
        ok = client.wait_for_jobs([submitted], raise_on_error=False)
    if not ok:
        for i in range(n):
            err = (logs / f"{i}.err").read_text()
            if err.strip():
                print(f"task {i}: {err}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
