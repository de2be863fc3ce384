// Package dist holds the release's packaging: the systemd unit, the environment file, the
// package's scripts and nfpm configuration, and the Containerfile, which `make dist` builds
// from. Its tests check what `make dist` wrote into dist/ with dpkg-deb, systemd-analyze and
// podman, and run the packaged binaries against a test PostgreSQL.
package dist
