// A tiny static file server for the browser test: serves the repository
// root (web/, readers/js/, data/) on 127.0.0.1, read-only, GET and HEAD only.
//   node web/test/server.mjs [PORT]   (0 or none: any free port; prints the URL)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const types = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.pdb': 'application/octet-stream',
  '.tsv': 'text/plain; charset=utf-8',
};

/**
 * Starts the server; resolves to { url, close }. dataDir (optional) serves
 * the URL path /data/ from another directory (tables built elsewhere);
 * mounts (optional) maps more URL path prefixes ("/big/") to directories.
 */
export function serve(port = 0, dataDir = null, mounts = {}) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let base = root;
    const all = dataDir ? { '/data/': dataDir, ...mounts } : mounts;
    for (const [prefix, dir] of Object.entries(all)) {
      if (rel.startsWith(prefix)) {
        base = path.resolve(dir);
        rel = rel.slice(prefix.length - 1);
        break;
      }
    }
    let file = path.join(base, rel);
    if (file !== base && !file.startsWith(base + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (!err && st.isDirectory()) {
        file = path.join(file, 'index.html');
        try {
          st = fs.statSync(file);
        } catch (e) {
          err = e;
        }
      }
      if (err || !st.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      res.writeHead(200, {
        'content-type': types[path.extname(file)] || 'application/octet-stream',
        'content-length': st.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      resolve({ url: `http://127.0.0.1:${p}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url } = await serve(Number(process.argv[2] || 0));
  console.log(`serving ${root} at ${url}/web/`);
}
