# The bot needs no compiler: every pinned runtime dependency ships a wheel for CPython 3.11.
FROM python:3.11-slim

# DATABASE_URL is the image's own: keep it out of the --env-file (.env.example leaves it unset),
# since a value there replaces this one and would put the database outside the volume.
# docker-compose.yml sets its own, a PostgreSQL server's.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=/data/pyramid.sqlite3

# The bot's user owns /data and nothing else; a new named volume copies this folder's owner and mode.
RUN useradd --create-home --uid 10001 --user-group pyramid \
    && install -d -o 10001 -g 10001 -m 0700 /data

WORKDIR /app

# Dependencies first, so that a code change does not reinstall them.
COPY requirements.txt .
RUN pip install -r requirements.txt

# Owned by root and read-only to the bot's user: a compromised bot cannot rewrite its own code.
COPY . .

USER 10001:10001

# The SQLite database (and its WAL files) live here; a named volume keeps chips across upgrades.
VOLUME /data

CMD ["python", "bot.py"]
