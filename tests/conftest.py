"""Both stores for the tests that run on each: a SQLite file, and a fresh PostgreSQL database.

The PostgreSQL server is started once per session (tests/postgres.py) or named by
``PP_TEST_DATABASE_URL``; each test gets a database of its own, copied from a migrated
template, and dropped after it. A missing PostgreSQL skips those tests on a developer's
machine and fails them in CI (``CI=true``).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from storage.stores import open_database
from tests.postgres import (
    IN_CI,
    PostgresUnavailableError,
    create_database,
    drop_database,
    fresh_database,
    server_url,
)
from tests.render.helpers import Drawn, record_drawn

STORES = ("sqlite", "postgresql")
_TEMPLATE = f"pp_template_{os.getpid()}"

#: Memory-backed storage for the tests' temporary folders, where the machine has room in it.
MEMORY = Path("/dev/shm")
MEMORY_FREE_BYTES = 2 * 1024**3


#: Workers for a run of the whole suite (pyproject.toml's ``-n auto``): most of its wall time is
#: bot processes, fake Discord and deadlines waiting, so four overlap well even on two cores.
SUITE_WORKERS = 4


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """Four workers for the whole suite; for the quick lane (``-m "not slow"``), whose tests keep
    the CPUs busy rather than wait, one per CPU the run may use, up to four: on two CPUs two more
    would only import and collect the suite again and queue for them. ``-n N`` picks N, and
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` what ``auto`` means, as pytest-xdist reads them."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    if " ".join((config.option.markexpr or "").split()) == "not slow":
        # The CPUs this process may run on (bot.usable_cpus also reads a cgroup's quota, but
        # importing the bot would hold up the workers' start by some 0.4 s).
        has_affinity = hasattr(os, "sched_getaffinity")
        cpus = len(os.sched_getaffinity(0)) if has_affinity else os.cpu_count() or 1
        return min(SUITE_WORKERS, cpus)
    return SUITE_WORKERS


def pytest_configure(config: pytest.Config) -> None:
    """Keep the tests' temporary folders (their SQLite files) in memory where the machine has
    plenty of it: a scratch file need not survive a power cut, as the scratch PostgreSQL
    cluster runs with ``fsync=off`` (tests/postgres.py). On a busy disk the checkpoints' and
    closes' fsyncs were most of the quick lane's wall time. A ``--basetemp`` or a
    ``PYTEST_DEBUG_TEMPROOT`` given is kept; without such a folder, the system's temporary one."""
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK | os.X_OK)):
        return
    if shutil.disk_usage(MEMORY).free >= MEMORY_FREE_BYTES:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a server for the session (its ``postgres`` database)."""
    try:
        with server_url() as url:
            yield url
    except PostgresUnavailableError as error:
        if IN_CI:
            pytest.fail(f"CI needs PostgreSQL: {error}")
        pytest.skip(f"no PostgreSQL here: {error}")


@pytest.fixture(scope="session")
def postgres_template(postgres_server: str) -> Iterator[str]:
    """A database migrated to the latest schema, which each test's database copies."""

    async def make() -> None:
        database = await open_database(await fresh_database(postgres_server, _TEMPLATE))
        await database.close()

    asyncio.run(make())
    yield _TEMPLATE

    async def drop() -> None:
        admin = await asyncpg.connect(postgres_server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{_TEMPLATE}" WITH (FORCE)')
        finally:
            await admin.close()

    asyncio.run(drop())


@pytest.fixture
async def postgres_url(postgres_server: str, postgres_template: str) -> AsyncIterator[str]:
    """A new database for one test, already migrated."""
    url = await create_database(postgres_server, postgres_template)
    yield url
    await drop_database(postgres_server, url)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the latest schema, which the table and bot tests' files copy
    (as each PostgreSQL test's database copies ``postgres_template``): migrating a new file
    anew costs each of those tests some 8 ms of CPU, copying it 1 ms."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.sqlite3"

    async def make() -> None:
        database = await open_database(path)
        await database.close()

    asyncio.run(make())
    return path


@pytest.fixture(params=[STORES[0], pytest.param(STORES[1], marks=pytest.mark.slow)])
def store_name(request: pytest.FixtureRequest) -> str:
    """Each store in turn; the quick lane (``-m "not slow"``) keeps to SQLite, CI runs both."""
    return str(request.param)


@pytest.fixture
def database_target(store_name: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """What `open_database` opens for this test: a SQLite file, or a PostgreSQL URL."""
    if store_name == "sqlite":
        return tmp_path / "store.sqlite3"
    # Asked for only when the test runs on PostgreSQL, so SQLite runs need no server.
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """Every text the pictures lay during the test, with its face (``tests.render.helpers``)."""
    return record_drawn(monkeypatch)
