// GET /favicon.ico: browsers ask for it on every hosted page they load; it was a 404 each time. A
// 16x16 icon (the pages' blue, rounded corners) drawn once at start as an ICO holding a 32-bit
// bitmap, with no asset file and no image library. Browsers fetch /favicon.ico by default, so the
// pages need no <link> (layout.tsx keeps none); the CSP's img-src 'self' allows it. Cached a week.
import { Router } from "express";

const SIZE = 16;
const BLUE = [0xff, 0x5e, 0x1f, 0xff]; // #1f5eff as B, G, R, A

function inside(x: number, y: number): boolean {
  const r = 3; // corner radius
  const cx = x < r ? r - 0.5 : x > SIZE - 1 - r ? SIZE - r - 0.5 : x;
  const cy = y < r ? r - 0.5 : y > SIZE - 1 - r ? SIZE - r - 0.5 : y;
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** ICONDIR + one ICONDIRENTRY + BITMAPINFOHEADER + BGRA rows bottom-up + AND mask (unused with alpha). */
export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    const y = SIZE - 1 - row; // bitmaps are stored bottom-up
    for (let x = 0; x < SIZE; x++) if (inside(x, y)) pixels.set(BLUE, (row * SIZE + x) * 4);
  }
  const mask = Buffer.alloc(SIZE * 4); // 16 rows of 32 bits (rows are padded to 4 bytes)
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0); // header size
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8); // height covers the colour bitmap and the mask
  info.writeUInt16LE(1, 12); // planes
  info.writeUInt16LE(32, 14); // bits per pixel
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(SIZE, 6);
  head.writeUInt8(SIZE, 7);
  head.writeUInt16LE(1, 10); // planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(head.length, 18); // offset of the image
  return Buffer.concat([head, image]);
}

export function faviconRouter(): Router {
  const icon = faviconIco();
  const router = Router();
  router.get("/favicon.ico", (_req, res) => {
    res.status(200).set({ "Content-Type": "image/x-icon", "Cache-Control": "public, max-age=604800", "X-Content-Type-Options": "nosniff" }).send(icon);
  });
  return router;
}
