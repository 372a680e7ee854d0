#!/bin/sh
# Makes the secret files that docker-compose.yml mounts, in deploy/secrets/ (or the folder
# given): random values, and a database URL that carries the PostgreSQL password. A file
# that exists is kept, so running it again changes nothing.
#
# The files are mode 0644 in a 0700 folder: Compose (outside Swarm) mounts a secret with its
# host owner and mode, and the containers read them as their own users (postgres: uid 70,
# the hub: uid 10001); the folder keeps other users of this machine out.
set -eu
dir=${1:-"$(dirname "$0")/secrets"}
mkdir -p "$dir"
chmod 0700 "$dir"
cd "$dir"

random() { od -An -N24 -tx1 /dev/urandom | tr -d ' \n'; }  # hex: safe inside a URL

keep_or_make() {  # file value
    if [ -s "$1" ]; then
        echo "kept $dir/$1"
    else
        (umask 022 && printf '%s\n' "$2" > "$1")
        echo "made $dir/$1"
    fi
}

keep_or_make postgres-password "$(random)"
password=$(tr -d '[:space:]' < postgres-password)
keep_or_make database-url "postgresql+asyncpg://agenthub:$password@postgres:5432/agenthub"
keep_or_make operator-token "$(random)"
keep_or_make registration-token "$(random)"
