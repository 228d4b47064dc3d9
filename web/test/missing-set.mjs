// The web page's load error for a set file that is not on the server: it
// must say the file is missing (HTTP 404), not report the server's error
// page as malformed JSON (a fresh-user trial's finding). Used by
// web-test.mjs; runs alone too (one page load, no solving):
//   CHROMIUM=/usr/bin/chromium node web/test/missing-set.mjs
import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * Opens the page with ?set= naming a set file the server lacks and returns
 * { ok, text }: the load state it shows, and whether that is the one line
 * naming the file as missing (no "invalid set: not a set file").
 */
export async function checkMissingSet(browser, serverUrl) {
  const page = await browser.newPage();
  try {
    // the 404 and the rejected load are expected here: not watched as errors
    await page.goto(`${serverUrl}/web/?set=../data/no-such.set.json`, { waitUntil: 'load' });
    await page.waitForFunction(() => /Loading failed/.test(document.querySelector('#loadstate').textContent), { timeout: 30000 });
    const text = await page.evaluate(() => document.querySelector('#loadstate').textContent);
    const ok = text === 'Loading failed: ../data/no-such.set.json: no such file on the server (HTTP 404)';
    return { ok, text };
  } finally {
    await page.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { default: puppeteer } = await import('puppeteer-core');
  const { serve } = await import('./server.mjs');
  const server = await serve(0);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tilepdb-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    userDataDir,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
  let code = 1;
  try {
    const r = await checkMissingSet(browser, server.url);
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} a missing set file is named as missing: ${r.text}`);
    code = r.ok ? 0 : 1;
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
  process.exit(code);
}
