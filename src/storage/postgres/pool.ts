// Running work on a pooled PostgreSQL connection: a connection that broke is discarded, a transaction rolls back on error.
import type pg from 'pg';

/** Runs `fn` on a pooled connection; a connection that broke meanwhile is discarded, not reused. */
export async function withClient<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (err: Error) => (broken = err);
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    broken ??= isConnectionError(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** Runs `fn` in one transaction on a pooled connection (rolled back when it throws). */
export function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>, mode = ''): Promise<T> {
  return withClient(pool, async (c) => {
    await c.query(`BEGIN ${mode}`);
    try {
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}

/** Errors after which a connection is not reused: the socket is gone or the server is shutting down. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return (
    code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || /ECONN|EPIPE|terminated|timeout/i.test(String((err as Error).message))
  );
}
