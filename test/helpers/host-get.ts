// A GET with a chosen Host header (fetch does not let a caller set Host), for the control surface's Host rule.
import { request } from 'node:http';

/** GETs `path` from the server at `url` (its port on 127.0.0.1) with `headers`, Host included; answers status and JSON body. */
export function get(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: u.port, path, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}
