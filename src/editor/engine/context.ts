// What every feature of the editor gets of the engine: one typed context (like a tldraw tool's
// `this.editor`), built once by EditorEngine before any feature. Features reach the document, the
// undo stack, the scene, the models and the worker through it, and learn about each other only
// through the document and the engine's state (the selected wire, the shown base's worker mesh),
// never through the engine's facade.
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Scene } from '@babylonjs/core/scene';
import type { GeometryClient, MeshHandle } from '../../geometry/client.ts';
import type { Command } from './commands.ts';
import type { DesignDocument, Jaw, ModelRole } from './document.ts';
import type { GeometryPort } from './models.ts';
import type { Matrix4, Xyz } from './pose.ts';
import type { EditorState } from './state.ts';
import type { BaseGeometry, BaseMeshArrays } from '../features/base/feature.ts';
import type { JawModelState } from '../features/base/rules.ts';
import type { SlotGeometry } from '../features/slots/feature.ts';
import type { SmoothGeometry } from '../features/smooth/feature.ts';
import type { AnalysisGeometry } from '../features/analysis/feature.ts';
import type { WireKitGeometry } from '../features/wires/kit.ts';
import type { TagGeometry } from '../features/wires/tags.ts';
import type { DeviceGeometry } from '../device/DeviceController.ts';
import type { BiteGeometry } from '../features/bite/feature.ts';
import type { TeethGeometry } from '../features/teeth/feature.ts';

/** The geometry worker as the engine holds it: everything the models and the features call. */
/** The STL export's own call (optional: test fakes without it export no wires). */
type StlExportGeometry = Partial<Pick<GeometryClient, 'meshStl'>>;
export type EditorGeometry = GeometryPort & BaseGeometry & SlotGeometry & SmoothGeometry & AnalysisGeometry & WireKitGeometry & DeviceGeometry & BiteGeometry & TeethGeometry & StlExportGeometry & Partial<TagGeometry>;

/** What features publish for each other in the engine's state. */
export type SharedState = Pick<EditorState, 'baseMeshes'>;

/**
 * The generated bases (one per jaw) as the features that build on them reach them (slotting): a
 * typed capability, not the base feature. The bases are still read from the state
 * (`state().baseMeshes`); this is what must be awaited or swapped.
 */
export interface GeneratedBase {
  /** Calls `listener` when a jaw's freshly generated base is shown (its arrays) or it went (null); returns what unsubscribes. */
  onGenerated(listener: (jaw: Jaw, arrays: BaseMeshArrays | null) => void): () => void;
  /** Resolves when the generations under way (if any) have ended. */
  settled(): Promise<void>;
  /** The worker handle of a jaw's base as generated (before its slots), or null: what tags are measured against. */
  handleOf(jaw: Jaw): MeshHandle | null;
  /**
   * Shows other arrays for a jaw's base, kept in the worker under `handle` (export and the
   * thickness map use it). False, and `handle` released, when that jaw shows no base any more.
   */
  replace(jaw: Jaw, handle: MeshHandle, arrays: BaseMeshArrays): boolean;
  /** Work the base's export waits for first (the document's slots all cut into the shown base). */
  holdExport(wait: () => Promise<void>): void;
}

export interface EditorContext {
  /** The geometry worker (handles of the models and of what features made). */
  readonly geometry: EditorGeometry;

  // ------------------------------------------------------------ document and commands
  document(): DesignDocument;
  /** An undoable change of the document (before/after snapshots). */
  change(label: string, next: DesignDocument): void;
  /** A document change with effects outside it (the worker's mesh), undone together. */
  changeWith(label: string, next: DesignDocument, effect: { do(): void; undo(): void }): void;
  /** Runs a command on the undo stack. */
  execute(command: Command): void;

  // ------------------------------------------------------------ state shared between features
  /** The engine's state now (immutable snapshot), with the selected wire and the straightening's status. */
  state(): EditorState;
  /** Publishes what other features read (the shown base; a feature's own store is read through state() as it is). */
  share(patch: Partial<SharedState>): void;
  /** The generated bases: awaiting their generation, swapping a mesh shown, holding their export. */
  readonly generatedBase: GeneratedBase;

  // ------------------------------------------------------------ scene and models
  scene(): Scene | null;
  /** A model's Babylon mesh (what a feature draws on it is its child, so it follows the bite). */
  meshOf(role: ModelRole): Mesh | null;
  /** The worker's handle of a model, or null. */
  handleOf(role: ModelRole): MeshHandle | null;
  /** Whether a model is loading, ready, failed or absent (and why it failed). */
  modelState(role: ModelRole): JawModelState;
  modelVisible(role: ModelRole): boolean;
  /** World bounds of the visible models, as drawn now. */
  bounds(): { min: Xyz; max: Xyz } | null;
  /** Shows the models in a pose without changing the document (a drag); null: the document's. */
  previewPose(matrix: Matrix4 | null): void;

  // ------------------------------------------------------------ viewport
  /** Canvas pixel of a model point (null behind the camera or without the model). */
  project(role: ModelRole, p: Xyz): { x: number; y: number } | null;
  /** Canvas pixels of many model points (xyz each): x, y each, NaN where project gives null; null without the model. */
  projectMany(role: ModelRole, points: ArrayLike<number>): Float32Array | null;
  /** The viewing ray under a canvas pixel in a model's frame. */
  rayAt(role: ModelRole, x: number, y: number): { origin: Xyz; direction: Xyz } | null;
  /** The camera's viewing direction in a model's frame. */
  viewAxis(role: ModelRole): Xyz | null;
  /** Unit vector from the camera's target towards the camera (world = canonical frame). */
  viewDirection(): Xyz | null;
  fitToView(): void;

  // ------------------------------------------------------------ frames
  /** A frame is owed; `ms` keeps frames coming that long. */
  requestRender(ms?: number): void;
  /** Work whose result will be drawn (the picture is pending until then). */
  track(work: Promise<unknown>): void;
}
