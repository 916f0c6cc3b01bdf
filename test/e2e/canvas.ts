// Reading the editor's viewport in browser tests: its pixels as drawn (the engine keeps the
// drawing buffer), how much two views differ, and where the models are.
import type { Page } from '@playwright/test';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: number[];
}

const VIEWPORT_CANVAS = '[data-testid="viewport"] canvas';

/** The canvas pixels as drawn, at 1/divisor of the CSS size. */
export async function canvasPixels(page: Page, divisor = 4): Promise<Pixels> {
  return page.locator(VIEWPORT_CANVAS).evaluate((canvas: HTMLCanvasElement, divisor: number) => {
    const copy = document.createElement('canvas');
    copy.width = Math.round(canvas.clientWidth / divisor);
    copy.height = Math.round(canvas.clientHeight / divisor);
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
    return { width: copy.width, height: copy.height, data: Array.from(ctx.getImageData(0, 0, copy.width, copy.height).data) };
  }, divisor);
}

/** Share of pixels whose colour changed noticeably between two reads. */
export function pixelDifference(a: { data: number[] }, b: { data: number[] }): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 30) changed++;
  }
  return changed / (a.data.length / 4);
}

/** Canvas CSS pixels of the models: pixels whose colour is far from the background's (the top-left corner). */
export async function modelPixels(page: Page): Promise<{ x: number; y: number }[]> {
  const shot = await canvasPixels(page);
  const box = (await page.locator(VIEWPORT_CANVAS).boundingBox())!;
  const scale = shot.width / box.width;
  const bg = [shot.data[0]!, shot.data[1]!, shot.data[2]!];
  const found: { x: number; y: number }[] = [];
  for (let y = 0; y < shot.height; y++) {
    for (let x = 0; x < shot.width; x++) {
      const i = (y * shot.width + x) * 4;
      if (Math.abs(shot.data[i]! - bg[0]!) + Math.abs(shot.data[i + 1]! - bg[1]!) + Math.abs(shot.data[i + 2]! - bg[2]!) > 60) found.push({ x: x / scale, y: y / scale });
    }
  }
  return found;
}

/** Rendering is on demand: wait for the frames of a change to be drawn. */
export async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(900);
}

/** The canvas once it has stopped changing (two reads 0.5 s apart alike), for a before/after pair. */
export async function stablePixels(page: Page, timeoutMs = 30_000): Promise<Pixels> {
  const end = Date.now() + timeoutMs;
  let last = await canvasPixels(page);
  for (;;) {
    await page.waitForTimeout(500);
    const now = await canvasPixels(page);
    if (pixelDifference(last, now) === 0 || Date.now() > end) return now;
    last = now;
  }
}
