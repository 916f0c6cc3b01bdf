// Reading the editor's viewport in browser tests: its pixels as drawn (the engine keeps the
// drawing buffer), how much two views differ, and where the models are.
import { expect, type Page } from '@playwright/test';

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, row by row. */
  data: Uint8Array;
}

const VIEWPORT_CANVAS = '[data-testid="viewport"] canvas';

/**
 * The canvas pixels as drawn, at 1/divisor of the CSS size. They come over as one base64 string:
 * a JSON array of numbers costs seconds per megapixel on a busy machine (the full-size canvas is
 * 3.5 million of them).
 */
export async function canvasPixels(page: Page, divisor = 4): Promise<Pixels> {
  const shot = await page.locator(VIEWPORT_CANVAS).evaluate((canvas: HTMLCanvasElement, divisor: number) => {
    const copy = document.createElement('canvas');
    copy.width = Math.round(canvas.clientWidth / divisor);
    copy.height = Math.round(canvas.clientHeight / divisor);
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
    const bytes = ctx.getImageData(0, 0, copy.width, copy.height).data;
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: copy.width, height: copy.height, base64: btoa(binary) };
  }, divisor);
  return { width: shot.width, height: shot.height, data: new Uint8Array(Buffer.from(shot.base64, 'base64')) };
}

/** Share of pixels whose colour changed noticeably between two reads. */
export function pixelDifference(a: { data: ArrayLike<number> }, b: { data: ArrayLike<number> }): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 30) changed++;
  }
  return changed / (a.data.length / 4);
}

/** Share of strongly coloured pixels (a heatmap's ramp; the models are beige and grey). */
export function saturated(a: { data: ArrayLike<number> }): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const r = a.data[i]!, g = a.data[i + 1]!, b = a.data[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 90) n++;
  }
  return n / (a.data.length / 4);
}

/** Canvas CSS pixels of the models: pixels whose colour is far from the background's (the top-left corner). */
export async function modelPixels(page: Page, divisor = 4): Promise<{ x: number; y: number }[]> {
  const shot = await canvasPixels(page, divisor);
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

/** What the last complete frame drew (the viewport's data-drawn-* attributes, frameAttributes.ts). */
export interface Drawn {
  view?: string;
  /** Model roles drawn and hidden, comma-separated in role order. */
  models?: string;
  hidden?: string;
  heatmap?: string;
  wires?: string;
  /** Acrylic bases drawn (one per jaw at most). */
  bases?: string;
  handles?: string;
  /** Measurement lines drawn. */
  measurements?: string;
  revision?: string;
}

const DRAWN_KEYS = ['view', 'models', 'hidden', 'heatmap', 'wires', 'bases', 'handles', 'measurements', 'revision'] as const;

/**
 * Waits until the picture shows every change made so far: no frame owed (a change not yet drawn,
 * the camera still moving, shaders compiling) and, where given, the last complete frame showed
 * `expected`. Use `expected` for what arrives later than the action (a heatmap from the worker).
 */
export async function settle(page: Page, expected: Drawn = {}, timeout = 90_000): Promise<void> {
  const viewport = page.locator('[data-testid="viewport"]');
  await expect
    .poll(
      () =>
        viewport.evaluate((el: HTMLElement, keys: readonly string[]) => {
          const d = el.dataset;
          const drawn: Record<string, string | undefined> = { render: d.render };
          for (const k of keys) drawn[k] = d[`drawn${k[0]!.toUpperCase()}${k.slice(1)}`];
          return drawn;
        }, DRAWN_KEYS),
      { timeout, intervals: [50, 100, 250] },
    )
    .toMatchObject({ render: 'idle', ...expected });
}

/** The canvas once every change is drawn (settle), for a before/after pair. */
export async function stablePixels(page: Page, expected: Drawn = {}): Promise<Pixels> {
  await settle(page, expected);
  return canvasPixels(page);
}

/**
 * Page coordinates of a model point (x, y) seen from the top (view 5), from the model's silhouette
 * on the canvas (CSS pixels) and the model's own extent: good enough to click a tooth.
 */
export async function topViewMapping(page: Page, mesh: { positions: Float32Array }, silhouette: { x: number; y: number }[]): Promise<(x: number, y: number) => { x: number; y: number }> {
  const xs = silhouette.map((p) => p.x), ys = silhouette.map((p) => p.y);
  const [sx0, sx1, sy0, sy1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < mesh.positions.length; i += 3) {
    minX = Math.min(minX, mesh.positions[i]!);
    maxX = Math.max(maxX, mesh.positions[i]!);
    minY = Math.min(minY, mesh.positions[i + 1]!);
    maxY = Math.max(maxY, mesh.positions[i + 1]!);
  }
  const box = (await page.locator(VIEWPORT_CANVAS).boundingBox())!;
  return (x, y) => ({
    x: box.x + sx0 + ((x - minX) / (maxX - minX)) * (sx1 - sx0),
    y: box.y + sy0 + ((maxY - y) / (maxY - minY)) * (sy1 - sy0),
  });
}
