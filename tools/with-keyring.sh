#!/usr/bin/env bash
# Runs a command with a real Secret Service: on Linux without a desktop session, a private D-Bus
# session with gnome-keyring unlocked for the run. Elsewhere (macOS, a desktop Linux session)
# the command runs as it is, against the person's own keychain.
set -euo pipefail
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  exec dbus-run-session -- bash -c '
    # A keyring folder of its own: a login keyring left on the machine has another password.
    keyrings=$(mktemp -d)
    trap "rm -rf \"$keyrings\"" EXIT
    echo -n "test-keyring" | XDG_DATA_HOME="$keyrings" gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || true
    export BREACH_MONITOR_TEST_KEYRING=gnome-keyring
    "$@"' bash "$@" 2> >(grep -v "Failed to set fd limit" >&2)
fi
exec "$@"
