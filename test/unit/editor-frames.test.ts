// The render loop against a stand-in engine whose frames take as long as the test says: a request
// is answered by a frame begun after it, however late the loop's next turn comes, and a frame drawn
// while shaders compile answers nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import type { Scene } from '@babylonjs/core/scene';
import { FrameClock, type FrameSummary } from '../../src/editor/engine/frames.ts';
import { runFrames } from '../../src/editor/engine/viewport.ts';

const SUMMARY: FrameSummary = { view: 'front', models: ['upper'], hidden: [], heatmap: 'off', wires: 0, bases: 0, handles: false, measurements: 0, revision: 0 };

function loop(opts: { ready?: () => boolean; onRender?: () => void } = {}) {
  let tick: () => void = () => {};
  const engine = { runRenderLoop: (fn: () => void) => (tick = fn), getRenderWidth: () => 800, getRenderHeight: () => 600 } as unknown as AbstractEngine;
  let rendered = 0;
  const scene = {
    meshes: [{}],
    isReady: () => opts.ready?.() ?? true,
    render: () => {
      rendered++;
      opts.onRender?.();
    },
  } as unknown as Scene;
  const clock = new FrameClock();
  let view = 'front';
  runFrames(engine, scene, { heldUntil: () => 0, clock, summarize: () => ({ ...SUMMARY, view }) });
  return { clock, tick: () => tick(), rendered: () => rendered, setView: (v: string) => (view = v) };
}

describe('render loop', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['performance'] }));
  afterEach(() => vi.useRealTimers());

  it('draws a frame for a request however late the next turn comes, then stops', () => {
    const l = loop();
    l.tick();
    expect(l.rendered()).toBe(0); // nothing asked
    l.setView('right');
    l.clock.request();
    expect(l.clock.status().pending).toBe(true);
    vi.advanceTimersByTime(5000); // a 5 s frame of something else, a busy machine
    l.tick();
    expect(l.rendered()).toBe(1);
    expect(l.clock.status()).toMatchObject({ pending: false, frames: 1, drawn: { view: 'right' } });
    l.tick();
    l.tick();
    expect(l.rendered()).toBe(1);
  });

  it('a request made during a frame is owed another frame', () => {
    let during = true;
    const l = loop({ onRender: () => during && ((during = false), l.clock.request()) });
    l.clock.request();
    l.tick();
    expect(l.clock.status().pending).toBe(true);
    l.tick();
    expect(l.rendered()).toBe(2);
    expect(l.clock.status().pending).toBe(false);
  });

  it('frames drawn while shaders compile answer nothing; the first ready one does', () => {
    let ready = false;
    const l = loop({ ready: () => ready });
    l.clock.request();
    l.tick();
    l.tick();
    expect(l.rendered()).toBe(2);
    expect(l.clock.status()).toMatchObject({ pending: true, drawn: null });
    ready = true;
    l.tick();
    expect(l.clock.status()).toMatchObject({ pending: false, frames: 3, drawn: { view: 'front' } });
  });

  it('an animation keeps frames coming for its time, and says when it is over', () => {
    const l = loop();
    const seen: boolean[] = [];
    l.clock.onStatus.add((s) => seen.push(s.pending));
    l.clock.request(100);
    l.tick();
    vi.advanceTimersByTime(50);
    l.tick();
    vi.advanceTimersByTime(60);
    l.tick();
    expect(l.rendered()).toBe(2);
    expect(seen.at(-1)).toBe(false);
  });
});
