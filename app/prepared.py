"""The write path's statements, compiled once and run on SQLite's driver itself.

SQLAlchemy's work around one execution (the compiled-cache lookup, an execution context,
the expansion of ``IN`` lists, the bind and result processing set up again, the result
object, the async adaptation) costs 90-150 us of CPU a statement on this project's
machine; SQLite runs the writer's statements in 7-12 us, ``app.prepared`` in 13-19 us
(``python -m bench.ingest.statements``).
The writer runs a handful a batch, so at small batches SQLAlchemy was most of its cost.

A ``Prepared`` is a Core statement, defined as ever. On SQLite ``rows``/``run``/``run_many``
render it once per dialect and per size of its ``IN`` lists (SQLAlchemy's own compiler and
its own bind and result processors: the types' conversions are SQLAlchemy's), then hand
the SQL and its positional parameters to the connection's driver (``app.db.InlineSqlite``)
inside the connection's transaction. On other dialects they are ``conn.execute``: asyncpg
starts its transaction on SQLAlchemy's first statement, and PostgreSQL's round trip, not
SQLAlchemy, is what a statement costs there.

What cannot be run this way is run by SQLAlchemy on every dialect: an INSERT whose columns
need Python-side defaults, or a statement whose compilation needs its values.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql import Executable
from sqlalchemy.sql.compiler import SQLCompiler

Row = tuple[Any, ...]
T = TypeVar("T")
Processor = Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class _Rendered:
    sql: str
    # each positional parameter: (its name, its index in its list, the conversion to the
    # driver's value), or (None, None, None, the value) for a value the statement holds
    binds: tuple[tuple[str | None, int | None, int | None, Processor, Any], ...]

    def args(self, params: dict[str, Any]) -> list[Any]:
        out = []
        for name, index, member, process, fixed in self.binds:
            if name is None:
                out.append(fixed)
                continue
            value = params[name] if index is None else params[name][index]
            if member is not None:  # an ``IN`` list of tuples
                value = value[member]
            out.append(value if process is None else process(value))
        return out


class _Compiled:
    def __init__(self, statement: Executable, dialect: Dialect, keys: tuple[str, ...]) -> None:
        options: dict[str, Any] = {"dialect": dialect}
        if keys:
            options["column_keys"] = list(keys)
        compiled = statement.compile(**options)  # type: ignore[attr-defined]
        assert isinstance(compiled, SQLCompiler)
        self.compiled = compiled
        prefetch = [*compiled.insert_prefetch, *compiled.update_prefetch]
        # a column left out of an INSERT whose default is a constant: SQLAlchemy's value
        self.defaults = {c.key: c.default.arg for c in prefetch if c.default.is_scalar}  # type: ignore[union-attr]
        self.runnable = len(self.defaults) == len(prefetch)
        # the ``IN`` lists the caller gives (a literal list is the statement's own)
        self.expanding = tuple(
            name for bind, name in compiled.bind_names.items() if bind.expanding and bind.required
        )
        self.results: tuple[Processor, ...] = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in compiled._result_columns
        )
        self._rendered: dict[tuple[int, ...], _Rendered] = {}

    def rendered(self, params: dict[str, Any]) -> _Rendered:
        sizes = tuple(len(params[name]) for name in self.expanding)
        rendered = self._rendered.get(sizes)
        if rendered is None:
            state = self.compiled.construct_expanded_state(params)
            origin: dict[str, tuple[str, int, int | None]] = {}
            for name, expanded in state.parameter_expansion.items():
                if name not in params:
                    continue  # a literal list: each of its values is fixed below
                values = params[name]
                width = len(values[0]) if values and isinstance(values[0], tuple) else 0
                for i, each in enumerate(expanded):
                    origin[each] = (name, i // width, i % width) if width else (name, i, None)
            positions = state.positiontup or ()
            processors: dict[str, Any] = {**self.compiled._bind_processors, **state.processors}
            binds: list[tuple[str | None, int | None, int | None, Processor, Any]] = []
            for p in positions:
                process = processors.get(p)
                if p in origin:
                    binds.append((*origin[p], process, None))
                elif p in params:
                    binds.append((p, None, None, process, None))
                else:  # a literal of the statement's own
                    value = state.parameters[p]
                    fixed = value if process is None else process(value)
                    binds.append((None, None, None, None, fixed))
            rendered = self._rendered[sizes] = _Rendered(state.statement, tuple(binds))
        return rendered

    def read(self, raw: list[Row]) -> list[Row]:
        processors = self.results
        if not any(processors):
            return raw
        return [
            tuple(v if p is None else p(v) for v, p in zip(row, processors, strict=False))
            for row in raw
        ]


class Prepared:
    """A Core statement the write path runs often (see the module's docstring)."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, tuple[str, ...]], _Compiled] = {}

    def on(self, dialect: Dialect, keys: tuple[str, ...]) -> _Compiled:
        """Compiled for ``dialect`` and the parameters' sorted ``keys`` (an INSERT's columns,
        or an UPDATE's, as SQLAlchemy compiles a statement for what it is given)."""
        compiled = self._compiled.get((dialect.name, keys))
        if compiled is None:
            compiled = self._compiled[(dialect.name, keys)] = _Compiled(
                self.statement, dialect, keys
            )
        return compiled


def _sqlite_driver(conn: AsyncConnection) -> Any | None:
    """The connection's ``InlineSqlite`` on SQLite; None on other dialects."""
    sync = conn.sync_connection
    if conn.dialect.name != "sqlite" or sync is None:
        return None
    return sync.connection.driver_connection


def _driver(conn: AsyncConnection) -> Any | None:
    """The connection's ``InlineSqlite``, or None where statements go through SQLAlchemy:
    on SQLite inside a transaction, SQLAlchemy's or the writer's own (``begin_writing``;
    outside both, a commit would not see the statement's writes)."""
    driver = _sqlite_driver(conn)
    if driver is None:
        return None
    if conn.in_transaction() or driver._conn.in_transaction:
        return driver
    return None


async def _at(conn: AsyncConnection, call: Awaitable[T], sql: str) -> T:
    """The driver's call, its errors raised as SQLAlchemy raises them (``IntegrityError``,
    ``OperationalError``…), which is what the hub's callers and handlers catch."""
    try:
        return await call
    except conn.dialect.loaded_dbapi.Error as exc:
        raise DBAPIError.instance(
            sql, None, exc, conn.dialect.loaded_dbapi.Error, dialect=conn.dialect
        ) from exc


def _at_driver(
    conn: AsyncConnection, prepared: Prepared, params: dict[str, Any]
) -> tuple[Any, _Compiled, dict[str, Any]] | None:
    """The driver, the statement compiled for ``params``' keys and ``params`` with the
    statement's constant defaults, when the statement runs at the driver; else None."""
    driver = _driver(conn)
    if driver is None:
        return None
    compiled = prepared.on(conn.dialect, tuple(sorted(params)))
    if not compiled.runnable:
        return None
    return driver, compiled, {**compiled.defaults, **params} if compiled.defaults else params


async def rows(conn: AsyncConnection, prepared: Prepared, params: dict[str, Any]) -> list[Row]:
    """The statement's rows (a SELECT, or a statement with RETURNING), as tuples."""
    if (ready := _at_driver(conn, prepared, params)) is not None:
        driver, compiled, params = ready
        rendered = compiled.rendered(params)
        args = rendered.args(params)
        return compiled.read(await _at(conn, driver.rows(rendered.sql, args), rendered.sql))
    return [tuple(row) for row in await conn.execute(prepared.statement, params)]


async def run(conn: AsyncConnection, prepared: Prepared, params: dict[str, Any]) -> None:
    """Run a statement that returns no rows."""
    await run_many(conn, prepared, [params])


async def run_many(
    conn: AsyncConnection, prepared: Prepared, many: Sequence[dict[str, Any]]
) -> None:
    """Run a statement once for each of ``many`` parameter sets, all with the same keys
    (an INSERT of many rows: its columns are the first set's keys)."""
    if not many:
        return
    ready = _at_driver(conn, prepared, many[0])
    if ready is not None and (len(many) == 1 or not ready[1].expanding):
        driver, compiled, first = ready
        if compiled.defaults:
            many = [first, *({**compiled.defaults, **params} for params in many[1:])]
        rendered = compiled.rendered(first)
        args_many = [rendered.args(p) for p in many]
        await _at(conn, driver.run_many(rendered.sql, args_many), rendered.sql)
        return
    await conn.execute(prepared.statement, many[0] if len(many) == 1 else list(many))


async def begin_writing(conn: AsyncConnection) -> bool:
    """On SQLite, take the write lock now (``BEGIN IMMEDIATE``, at the driver): the writer's
    reads are then what it writes against. Whether it did (False: another dialect, whose
    transaction SQLAlchemy begins).

    SQLAlchemy is not told: a batch whose statements all run at the driver ends with the
    driver's COMMIT (``end_writing``), ~45 us of SQLAlchemy's and the asyncio adaptation's
    work less a batch. A statement SQLAlchemy runs meanwhile (the full path's ORM session,
    a savepoint) begins SQLAlchemy's transaction, on SQLite only a mark, inside the
    driver's: the batch then ends through SQLAlchemy, whose COMMIT is the driver's."""
    driver = _sqlite_driver(conn)
    if driver is None:
        return False
    await _at(conn, driver.run_many("BEGIN IMMEDIATE", [()]), "BEGIN IMMEDIATE")
    return True


async def end_writing(conn: AsyncConnection, *, commit: bool) -> None:
    """COMMIT (or ROLLBACK) the transaction ``begin_writing`` began, or SQLAlchemy's:
    through SQLAlchemy when it knows of one, else at the driver."""
    if conn.in_transaction():
        await (conn.commit() if commit else conn.rollback())
        return
    driver = _driver(conn)
    if driver is None:  # nothing begun (a failed BEGIN), or ended already
        return
    call, sql = (driver.commit(), "COMMIT") if commit else (driver.rollback(), "ROLLBACK")
    await _at(conn, call, sql)
