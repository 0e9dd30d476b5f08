"""A scratch PostgreSQL cluster for the tests: started once per test session, gone after it.

``PP_TEST_DATABASE_URL`` points the tests at a server of your own instead. Without it the
machine's PostgreSQL binaries (``initdb``, ``pg_ctl``) start a cluster in a temporary folder,
listening on 127.0.0.1 and a socket there, with trust authentication. ``initdb`` and
``postgres`` refuse to run as root, so as root they run as the ``postgres`` user.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import urllib.parse
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg

#: Where Debian puts the server's programs; PATH is searched first.
_BIN_FOLDERS = tuple(sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True))
#: A PostgreSQL that cannot start (or a missing one) fails the run in CI, never skips.
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


class PostgresUnavailableError(RuntimeError):
    """No PostgreSQL server can be found or started here; the message says why."""


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found is not None:
        return found
    for folder in _BIN_FOLDERS:
        if (folder / name).is_file():
            return str(folder / name)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class ScratchCluster:
    """A running scratch cluster; ``url`` names its ``postgres`` database."""

    folder: Path
    port: int
    user: str
    pg_ctl: str
    as_user: tuple[str, ...]

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def url_of(self, database: str) -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            subprocess.run(
                [*self.as_user, self.pg_ctl, "-D", str(self.folder / "data"), "-m", "fast", "stop"],
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster() -> ScratchCluster:
    """Initialise and start a cluster in a new temporary folder (stop it with ``stop()``)."""
    initdb, pg_ctl = _program("initdb"), _program("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise PostgresUnavailableError(
            "PostgreSQL's initdb and pg_ctl are not installed (Debian: apt install postgresql),"
            " and PP_TEST_DATABASE_URL is not set."
        )
    folder = Path(tempfile.mkdtemp(prefix="pp-postgres-"))
    as_user: tuple[str, ...] = ()
    user = pwd.getpwuid(os.getuid()).pw_name
    if os.getuid() == 0:
        # The server will not run as root: hand the folder to the postgres user.
        runuser = shutil.which("runuser")
        if runuser is None:
            raise PostgresUnavailableError("Running as root needs runuser to start PostgreSQL.")
        entry = pwd.getpwnam("postgres")
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        as_user, user = (runuser, "-u", "postgres", "--"), "postgres"
    data = folder / "data"
    port = _free_port()
    try:
        _run([*as_user, initdb, "-D", str(data), "-A", "trust", "-U", user, "-E", "UTF8"])
        options = (
            f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={folder}"
            # A scratch cluster: no need to survive a power cut, and many test databases.
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=300"
        )
        log = str(folder / "server.log")
        _run(
            [*as_user, pg_ctl, "-D", str(data), "-l", log, "-o", options, "-w", "-t", "60", "start"]
        )
    except PostgresUnavailableError:
        log = folder / "server.log"
        tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise PostgresUnavailableError(f"PostgreSQL did not start: {tail}") from None
    return ScratchCluster(folder, port, user, pg_ctl, as_user)


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise PostgresUnavailableError(f"{Path(command[-1]).name}: {done.stderr.strip()[-800:]}")


@contextlib.contextmanager
def server_url(given: str | None = None) -> Iterator[str]:
    """A server's URL while the block runs: ``given``, PP_TEST_DATABASE_URL's, or a scratch one."""
    given = given or os.environ.get("PP_TEST_DATABASE_URL")
    if given:
        yield given
        return
    cluster = start_cluster()
    try:
        yield cluster.url
    finally:
        cluster.stop()


def database_url(server: str, name: str) -> str:
    """The URL of the database ``name`` on the server ``server`` names."""
    return server.rsplit("/", 1)[0] + "/" + name


async def fresh_database(server: str, name: str, *, template: str | None = None) -> str:
    """The database ``name`` made anew (a copy of ``template`` if given); its URL."""
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        copy = "" if template is None else f' TEMPLATE "{template}"'
        await admin.execute(f'CREATE DATABASE "{name}"{copy}')
    finally:
        await admin.close()
    return database_url(server, name)


@contextlib.asynccontextmanager
async def guest_database(server: str, name: str) -> AsyncIterator[str]:
    """A new database ``name``, and a role ``name`` that may connect to it but create nothing in
    its schema; the URL that logs in as that role. Both are dropped after the block."""
    url = await fresh_database(server, name)
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP ROLE IF EXISTS "{name}"')
        await admin.execute(f'CREATE ROLE "{name}" LOGIN')
        # PostgreSQL 15 grants CREATE on public to the database's owner alone; older ones to all.
        await admin.execute(f'REVOKE CREATE ON SCHEMA public FROM PUBLIC, "{name}"')
    finally:
        await admin.close()
    parts = urllib.parse.urlsplit(url)
    try:
        yield parts._replace(netloc=f"{name}@{parts.hostname}:{parts.port}").geturl()
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.execute(f'DROP ROLE IF EXISTS "{name}"')
        finally:
            await admin.close()


_numbers = itertools.count(1)


async def create_database(server: str, template: str) -> str:
    """A new database copied from the migrated template; its URL."""
    return await fresh_database(
        server, f"pp_test_{os.getpid()}_{next(_numbers)}", template=template
    )


async def drop_database(server: str, url: str) -> None:
    """Drop a test's database, whoever is still connected to it."""
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await admin.close()
