#!/bin/sh
# The unit is made known but not started: the service needs the database set in
# /etc/leadchat/leadchat.env first. An upgrade restarts a running service.
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload >/dev/null || true
	if [ "$1" = configure ] && [ -n "$2" ]; then
		systemctl try-restart leadchat.service >/dev/null || true
	fi
fi
if [ "$1" = configure ] && [ -z "$2" ]; then
	echo "leadchat: set DATABASE_URL in /etc/leadchat/leadchat.env, then: systemctl enable --now leadchat"
fi
