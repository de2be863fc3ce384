package pgtest

import (
	"context"
	"io"
	"os"
	"time"
)

// Shared starts a throwaway cluster for several test processes at once, allowing maxConns
// connections: run them with EnvURL set to the returned DSN, and each makes its template and
// databases there instead of starting a cluster of its own. stop stops the server and removes
// its folder.
func Shared(ctx context.Context, progress io.Writer, maxConns int) (dsn string, stop func() error, err error) {
	cluster, tmp, err := startCluster(ctx, progress, maxConns)
	if err != nil {
		return "", nil, err
	}
	stop = func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := cluster.Stop(ctx)
		os.RemoveAll(tmp)
		return err
	}
	return cluster.DSN("postgres"), stop, nil
}
