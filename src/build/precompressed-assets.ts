/**
 * The build's compressed copies of the client's assets: each hashed script, stylesheet and SVG
 * under assets/ of at least 1 KB (the server's threshold below which nothing is compressed) is
 * written beside itself brotli-compressed at the highest quality (`.br`) and gzipped at level 9
 * (`.gz`), by the client build (plugins.ts) and the bench's anchors. The server sends a copy as it
 * is to a browser that takes its encoding (src/server/http/static-client.ts): no CPU per request,
 * and smaller than the quick compression of an answer made on the fly.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const PRECOMPRESSED_FILE = /\.(js|css|svg)$/;
const PRECOMPRESS_MIN_BYTES = 1024;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Writes the copies of the assets of a built client folder (the bench's anchors are built alike). */
export async function precompressAssets(root: string): Promise<void> {
  const assets = join(root, 'assets');
  const names = (await readdir(assets)).filter((name) => PRECOMPRESSED_FILE.test(name));
  await Promise.all(
    names.map(async (name) => {
      const file = join(assets, name);
      const content = await readFile(file);
      if (content.length < PRECOMPRESS_MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length } }),
        gzipped(content, { level: zlib.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}
