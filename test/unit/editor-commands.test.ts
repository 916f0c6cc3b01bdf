import { describe, expect, it } from 'vitest';
import { ActionRegistry } from '../../src/editor/engine/actions.ts';
import { CommandStack } from '../../src/editor/engine/commands.ts';
import { parseDocument, thinPath } from '../../src/editor/engine/document.ts';

function counter() {
  const log: number[] = [];
  let value = 0;
  const add = (n: number) => ({ label: `add ${n}`, do: () => log.push((value += n)), undo: () => log.push((value -= n)) });
  return { log, add, get value() { return value; } };
}

describe('command stack', () => {
  it('undoes and redoes in order, and a new command drops the redo branch', () => {
    const stack = new CommandStack();
    const c = counter();
    let changes = 0;
    stack.onChanged.add(() => changes++);
    stack.execute(c.add(1));
    stack.execute(c.add(10));
    expect(c.value).toBe(11);
    expect(stack.undoLabel).toBe('add 10');
    expect(stack.undo()).toBe(true);
    expect(c.value).toBe(1);
    expect(stack.canRedo).toBe(true);
    expect(stack.redo()).toBe(true);
    expect(c.value).toBe(11);
    stack.undo();
    stack.execute(c.add(100));
    expect(stack.canRedo).toBe(false);
    expect(c.value).toBe(101);
    stack.undo();
    stack.undo();
    expect(stack.undo()).toBe(false);
    expect(c.value).toBe(0);
    expect(changes).toBe(8); // every execute, undo and redo that did something
  });

  it('undoes back to a mark (a tool\'s reset), and refuses a mark that was undone away', () => {
    const stack = new CommandStack();
    const c = counter();
    stack.execute(c.add(1));
    const mark = stack.mark();
    stack.execute(c.add(2));
    stack.execute(c.add(4));
    expect(stack.undoTo(mark)).toBe(true);
    expect(c.value).toBe(1);
    expect(stack.depth).toBe(1);
    stack.redo();
    expect(c.value).toBe(3);
    stack.undoTo(0);
    expect(c.value).toBe(0);
    expect(stack.undoTo(mark)).toBe(false);
  });
});

describe('action registry', () => {
  it('matches Ctrl/Cmd chords and plain keys to actions', () => {
    const registry = new ActionRegistry();
    const ran: string[] = [];
    registry.register({ id: 'undo', keys: ['mod+z'], run: () => ran.push('undo') });
    registry.register({ id: 'redo', keys: ['mod+shift+z', 'mod+y'], run: () => ran.push('redo'), enabled: () => false });
    registry.register({ id: 'fit', keys: ['f'], run: () => ran.push('fit') });
    registry.register({ id: 'cancel', keys: ['escape'], run: () => ran.push('cancel') });
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      ...mods,
    });
    expect(registry.match(key('z', { ctrlKey: true }))?.id).toBe('undo');
    expect(registry.match(key('z', { metaKey: true }))?.id).toBe('undo');
    expect(registry.match(key('Z', { ctrlKey: true, shiftKey: true }))?.id).toBe('redo');
    expect(registry.match(key('y', { ctrlKey: true }))?.id).toBe('redo');
    expect(registry.match(key('F'))?.id).toBe('fit');
    expect(registry.match(key('z'))).toBeUndefined();
    // A named key matches by its lower-case name: 'Escape' is the chord 'escape'.
    expect(registry.match(key('Escape'))?.id).toBe('cancel');
    expect(registry.run('redo')).toBe(false);
    expect(registry.run('undo')).toBe(true);
    expect(ran).toEqual(['undo']);
  });
});

describe('design document', () => {
  it('reads back what it wrote and drops what it does not understand', () => {
    const m = { id: 'm1', model: 'upper', a: { point: [0, 0, 0], triangle: 3 }, b: { point: [3, 4, 0], triangle: 9 }, straight: 5, geodesic: 5.5, path: [0, 0, 0, 3, 4, 0] };
    const doc = parseDocument({ schemaVersion: 1, measurements: [m, { id: 'broken' }], unknown: true });
    expect(doc).toEqual({ schemaVersion: 1, measurements: [m] });
    expect(parseDocument(null)).toEqual({ schemaVersion: 1, measurements: [] });
  });

  it('thins a long path to at most the given points, keeping both ends', () => {
    const path = new Float32Array(3000).map((_, i) => i);
    const thin = thinPath(path, 10);
    expect(thin.length).toBe(30);
    expect(thin.slice(0, 3)).toEqual([0, 1, 2]);
    expect(thin.slice(-3)).toEqual([2997, 2998, 2999]);
  });
});
