"""The record engine's own benchmark runs end to end, briefly (numbers: BENCHMARKS.md)."""

from __future__ import annotations

from bench.ingest.writer import STATES, call_records, run


def test_a_call_is_recorded_in_the_order_its_sides_send() -> None:
    made = call_records("L", "P", "t")
    assert [who for who, _ in made] == ["L", "P", "P", "P", "L", "P"]
    sent = [body["sentAt"] for _, body in made]
    assert sent == sorted(sent)  # each after the last: the order the hub folds them in
    assert [b["status"]["state"] for w, b in made if w == "P"] == [*STATES, "completed"]


async def test_every_record_of_every_call_is_taken_and_counted() -> None:
    report = await run(calls=20, callers=4, per_submission=2)
    assert report["records"] == 120
    assert report["records_per_second"] > 0 and report["cpu_ms_per_record"] > 0
    assert report["statements_per_record"] > 0 and report["records_per_transaction"] >= 1


def test_sqlite_alone_stores_every_row_in_the_hubs_schema() -> None:
    from sqlmodel import SQLModel

    import app.tables  # noqa: F401 (the tables)
    from bench.ingest import sqlite_alone

    report = sqlite_alone.run(calls=20, per_transaction=31)
    indexes = len(SQLModel.metadata.tables["messages"].indexes) + 1  # and the unique one
    assert report["rows"] == 120 and report["indexes_on_messages"] == indexes
    assert report["cpu_us_per_row"] > 0 and report["commit_cpu_us_per_row"] > 0


async def test_the_statements_benchmark_runs_each_way() -> None:
    from bench.ingest import statements

    report = await statements.run(runs=20)
    timings = report["cpu_us_per_statement"]
    assert set(timings) == {"keys_and_used_ids", "memberships"}
    assert all(set(t) == {"sqlalchemy", "prepared", "sqlite3"} for t in timings.values())


async def test_group_posts_are_each_taken_and_counted() -> None:
    report = await run(calls=30, callers=3, per_submission=1, group_posts=True)
    assert report["kind"] == "group posts" and report["records"] == 30
    assert report["cpu_ms_per_record"] > 0 and report["records_per_transaction"] >= 1
