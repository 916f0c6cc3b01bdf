// The editor's state as React sees it (engine.getState(), immutable snapshots; useEditor.ts), and
// its value before anything is opened. EditorEngine.ts owns and changes the engine's own part
// (EngineState); the parts that belong to a feature (the straightening's status, the selected
// wire) are read from that feature's store when a snapshot is made, never copied and kept in step.
import type { MeshHandle } from '../../geometry/client.ts';
import { emptyDocument, type DesignDocument } from './document.ts';
import type { EditorError, LocalLoad, ModelInfo, ModelView } from './models.ts';
import type { ToolId, ToolPhase } from './tools/tool.ts';
import { mm, type Millimetres } from './units.ts';
import type { ViewPreset } from './views.ts';
import { IDLE_STRAIGHTEN, type StraightenStatus } from '../features/straighten/feature.ts';

/** What the engine keeps itself. */
export interface EngineState {
  /** False when WebGL could not start: the page shows why. */
  viewportReady: boolean;
  /** The local "Open STL" load in progress. */
  loading: LocalLoad | null;
  error: EditorError | null;
  /** The model opened locally (or the first ready model of an order). */
  model: ModelInfo | null;
  /** Every model slot in use, in role order. */
  models: ModelView[];
  view: ViewPreset | null;
  biteOpen: boolean;
  clipping: { enabled: boolean; offset: Millimetres; min: Millimetres; max: Millimetres };
  tool: ToolId | null;
  toolPhase: ToolPhase;
  toolHint: string | null;
  canUndo: boolean;
  canRedo: boolean;
  document: DesignDocument;
  /** Bumped by every design change (commands and loads): the autosave watches it. */
  revision: number;
  /** The measure tool's rubber band: straight distance to the surface under the cursor. */
  measurePreview: Millimetres | null;
  /** Each jaw's shown base's worker mesh (features/base/feature.ts), which the thickness map reads; null: none. */
  baseMeshes: { upper: MeshHandle | null; lower: MeshHandle | null };
  /**
   * Measurement overlays: drawn with the measure tool, for the one `focused` in the side panel's
   * list (hovered or focused), or for all while the designer's `shown` toggle is on. Otherwise
   * they stay out of the way of the design (a label over a clasp arm).
   */
  measurementsView: { shown: boolean; focused: string | null };
}

/** The engine's state with what it reads of the feature stores (engine.getState()). */
export interface EditorState extends EngineState {
  /** The automatic straightening: running, or why it failed (engine.straightening's store, features/straighten/feature.ts). */
  readonly straighten: StraightenStatus;
  /** The selected wire (engine.wires' store, features/wires/feature.ts). */
  readonly wires: { readonly selectedId: string | null };
  /** The Teeth display is on (engine.teeth's store, features/teeth/feature.ts). */
  readonly teethShown: boolean;
}

export function initialState(): EngineState {
  return {
    viewportReady: false,
    loading: null,
    error: null,
    model: null,
    models: [],
    view: 'front',
    biteOpen: false,
    clipping: { enabled: false, offset: mm(0), min: mm(-50), max: mm(50) },
    tool: null,
    toolPhase: 'idle',
    toolHint: null,
    canUndo: false,
    canRedo: false,
    document: emptyDocument(),
    revision: 0,
    measurePreview: null,
    baseMeshes: { upper: null, lower: null },
    measurementsView: { shown: false, focused: null },
  };
}

/** The whole state before an engine and its features exist (the page before its canvas mounts). */
export function initialEditorState(): EditorState {
  return { ...initialState(), straighten: IDLE_STRAIGHTEN, wires: { selectedId: null }, teethShown: false };
}
