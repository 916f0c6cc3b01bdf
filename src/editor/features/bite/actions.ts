// The bite's actions: show the bite scan, register the bite again, the manual alignment tool and
// its "Align" (the toolbar, the bite panel and the keys run the same objects).
import { msg } from '@lingui/core/macro';
import { toolToggle, type ActionHost, type EditorAction } from '../../engine/actions.ts';
import type { ModelRole } from '../../engine/document.ts';
import type { Tool } from '../../engine/tools/tool.ts';

export interface BiteActionHost extends ActionHost {
  readonly bite: { rerun(): Promise<boolean>; canRerun(): boolean; canAlign(): boolean; align(): Promise<boolean> };
  setVisible(role: ModelRole, visible: boolean): void;
}

const scanReady = (editor: ActionHost): boolean => editor.getState().models.some((m) => m.role === 'occlusion' && m.status === 'ready');
const scanShown = (editor: ActionHost): boolean => editor.getState().models.some((m) => m.role === 'occlusion' && m.status === 'ready' && m.visible);
const jawsReady = (editor: ActionHost): boolean => (['upper', 'lower'] as const).some((r) => editor.getState().models.some((m) => m.role === r && m.status === 'ready'));

/** The alignment tool, when it is the active one (its Enter and the panel's Align go through it, so its phase shows "busy"). */
const alignTool = (tool: Tool | null): (Tool & { align(): Promise<boolean> }) | null =>
  tool?.id === 'bite' && 'align' in tool ? (tool as Tool & { align(): Promise<boolean> }) : null;

export const biteActions = [
  {
    id: 'bite.scan',
    keys: ['o'],
    label: msg`Show the bite scan`,
    icon: 'scan',
    run: (editor) => editor.setVisible('occlusion', !scanShown(editor)),
    active: scanShown,
    enabled: scanReady,
  },
  {
    id: 'bite.rerun',
    keys: ['shift+r'],
    label: msg`Register the bite again`,
    icon: 'rerun',
    run: (editor) => void editor.bite.rerun(),
    enabled: (editor) => editor.bite.canRerun(),
  },
  {
    id: 'tool.bite',
    keys: ['p'],
    label: msg`Align the bite by point pairs`,
    icon: 'align',
    ...toolToggle('bite'),
    enabled: (editor) => scanReady(editor) && jawsReady(editor),
  },
  {
    id: 'bite.align',
    keys: [],
    label: msg`Align with the picked pairs`,
    icon: 'check',
    run: (editor) => void (alignTool(editor.activeTool)?.align() ?? editor.bite.align()),
    enabled: (editor) => editor.bite.canAlign(),
  },
] as const satisfies readonly EditorAction<BiteActionHost>[];
