// `engine.devices`: the device panel's data and actions, framework-free. The devices the user may
// bend on and the queue are polled while the panel is open (and refreshed after every action);
// the chosen device is remembered per user; "Bend" runs bendFlow.ts; the simulation view's
// program and states come from here too. The page connects it to the back end (connect()); a
// controller that is not connected only answers "no device".
import type { BendCheckInput, BendCheckResult, BendIssue, BendStep, ProgramStep, SimulateOptions, WireState } from '../../geometry/client.ts';
import type { WireDesign } from '../engine/document.ts';
import { DEFAULT_HEAD, type HeadBox } from '../../../common/bend-program.ts';
import { springbackTableProblem } from '../../../common/springback.ts';
import { bendWire, checkInput, springbackFor, type BendOutcome } from './bendFlow.ts';
import { DeviceNetworkError, type DevicePort } from './port.ts';
import type { QueueJob, UserDevice } from './types.ts';
import { FeatureStore } from '../engine/store.ts';
import type { OrderDeviceInfo } from '../../../common/order-lifecycle.ts';

export interface DeviceGeometry {
  bendCheck(input: BendCheckInput): Promise<BendCheckResult>;
  bendStates(steps: BendStep[], options: SimulateOptions): Promise<WireState[]>;
}

export interface DeviceHost {
  geometry: DeviceGeometry;
  /** The wire selected in the editor (engine.wires.selected()), or null. */
  selectedWire(): WireDesign | null;
}

/** Where the chosen device is remembered (localStorage in the page). */
export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface DeviceConnection {
  port: DevicePort;
  userId: number;
  /** A devices admin (superadmin or device:info:all) sees every job; others only their own. */
  admin: boolean;
  orderId: number | null;
  storage?: KeyValue | null;
  /** Poll period while the panel is open (ms). Default 3000. */
  pollMs?: number;
}

export interface SimulationData {
  wireId: string;
  /** The program with its derivation (feed, rotate, bend as sent; target kept). */
  steps: ProgramStep[];
  /** The wire in the head frame after each step (kernel). */
  states: WireState[];
  radius: number;
  diameter: number;
  /** 0-based step of the first collision with the head, if any. */
  collisionStep: number | null;
  issues: BendIssue[];
  /** The bending head the program was checked against (the device's, else the default). */
  head: readonly HeadBox[];
}

export interface DeviceView {
  connected: boolean;
  open: boolean;
  admin: boolean;
  devices: UserDevice[];
  /** False until the first device list arrived. */
  loaded: boolean;
  /** The last poll failed: the lists are the last ones received. */
  offline: boolean;
  queue: QueueJob[];
  deviceId: number | null;
  /** Only the user's own jobs (always for non-admins). */
  mine: boolean;
  sending: boolean;
  outcome: BendOutcome | null;
  /** Cancel refused by the server (its message), or a failed call. */
  cancelError: { jobId: string; message: string | null } | null;
  simulation: { status: 'none' | 'computing' | 'ready' | 'failed'; data: SimulationData | null; problem: 'noWire' | 'invalid' | 'badTable' | null; issues: BendIssue[] };
  /** The open order's machine (its latest bend job's) and its wires' jobs (getDeviceInfo); null without an order or before the first answer. */
  orderDevice: OrderDeviceInfo | null;
}

const INITIAL: DeviceView = {
  connected: false,
  open: false,
  admin: false,
  devices: [],
  loaded: false,
  offline: false,
  queue: [],
  deviceId: null,
  mine: true,
  sending: false,
  outcome: null,
  cancelError: null,
  simulation: { status: 'none', data: null, problem: null, issues: [] },
  orderDevice: null,
};

const QUEUE_LIMIT = 50;

export class DeviceController {
  private readonly store = new FeatureStore<DeviceView>(INITIAL);
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  private get view(): DeviceView {
    return this.store.getState();
  }
  private conn: DeviceConnection | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private refreshing: Promise<void> | null = null;
  private followUp: Promise<void> | null = null;
  private generation = 0;

  constructor(private readonly host: DeviceHost) {}

  private set(patch: Partial<DeviceView>): void {
    this.store.set(patch);
  }

  private storageKey(): string | null {
    return this.conn ? `aw.bend.device.${this.conn.userId}` : null;
  }

  /** Connects to the back end for a user (the page, once the user is known). */
  connect(conn: DeviceConnection): void {
    this.conn = conn;
    this.generation++;
    const key = this.storageKey();
    const remembered = key ? Number(conn.storage?.getItem(key) ?? NaN) : NaN;
    this.set({
      ...INITIAL,
      open: this.view.open,
      simulation: this.view.simulation,
      connected: true,
      admin: conn.admin,
      mine: !conn.admin,
      deviceId: Number.isInteger(remembered) && remembered > 0 ? remembered : null,
    });
    this.schedule();
  }

  disconnect(): void {
    this.conn = null;
    this.generation++;
    this.schedule();
    this.set({ connected: false });
  }

  /** Shows or hides the panel; polling runs only while it is shown. */
  setOpen(open: boolean): void {
    if (open === this.view.open) return;
    this.set({ open });
    this.schedule();
  }

  toggle(): void {
    this.setOpen(!this.view.open);
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.conn || !this.view.open) return;
    void this.refresh();
    // Not while the tab is in the background (the dock is not seen there).
    const hidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';
    this.timer = setInterval(() => void (hidden() || this.refresh()), this.conn.pollMs ?? 3000);
  }

  /**
   * Reloads the devices and the queue, one load at a time. A call during a load gets one more
   * load after it: the running one may have been asked before the change the caller wants to see
   * (a device just bound, a job just sent, a new connection whose first answer the older load's
   * would otherwise stand in for), and waiting for the next poll left the list empty meanwhile.
   */
  refresh(): Promise<void> {
    if (!this.conn) return Promise.resolve();
    if (this.refreshing) {
      this.followUp ??= this.refreshing.then(() => {
        this.followUp = null;
        return this.refresh();
      });
      return this.followUp;
    }
    this.refreshing = this.load().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async load(): Promise<void> {
    const conn = this.conn!;
    const generation = this.generation;
    try {
      // The order's machine on its own: a refusal there (an order out of scope) leaves the lists alone.
      const orderId = conn.orderId;
      const order = orderId !== null && conn.port.orderDevice ? conn.port.orderDevice(orderId).catch(() => this.view.orderDevice) : Promise.resolve(null);
      const [devices, queue, orderDevice] = await Promise.all([
        conn.port.devices(),
        conn.port.queue({ ...(this.view.mine ? { mine: true } : {}), limit: QUEUE_LIMIT }),
        order,
      ]);
      if (generation !== this.generation) return;
      this.set({ devices, queue, orderDevice, loaded: true, offline: false });
    } catch (e) {
      if (generation !== this.generation) return;
      if (e instanceof DeviceNetworkError) this.set({ offline: true });
      else this.set({ offline: true, loaded: true });
    }
  }

  /** The chosen device (remembered for this user). */
  selectDevice(id: number | null): void {
    const key = this.storageKey();
    if (key && this.conn?.storage) this.conn.storage.setItem(key, id === null ? '' : String(id));
    this.set({ deviceId: id, outcome: null });
  }

  /** The chosen device if it is still one of the user's. */
  selectedDevice(): UserDevice | null {
    return this.view.devices.find((d) => d.id === this.view.deviceId) ?? null;
  }

  /** Only my jobs (admins may switch; others always see only theirs). */
  setMine(mine: boolean): void {
    if (!this.view.admin && !mine) return;
    this.set({ mine });
    void this.refresh();
  }

  /** Sends the selected wire to the selected device. */
  async bend(): Promise<BendOutcome> {
    if (this.view.sending) return this.view.outcome ?? { kind: 'network' };
    this.set({ sending: true, outcome: null });
    let outcome: BendOutcome;
    try {
      // A device remembered but no longer listed still goes to the server, which says why.
      const listed = this.selectedDevice();
      const device = listed ?? (this.view.deviceId !== null ? { ...GHOST, id: this.view.deviceId } : null);
      outcome = await bendWire(
        { wire: this.host.selectedWire(), device, orderId: this.conn?.orderId ?? null },
        { bendCheck: (input) => this.host.geometry.bendCheck(listed ? input : { ...input, device: undefined }), port: this.conn?.port ?? NO_PORT },
      );
    } finally {
      this.set({ sending: false });
    }
    this.set({ outcome });
    if (outcome.kind === 'sent') await this.refresh();
    return outcome;
  }

  dismissOutcome(): void {
    this.set({ outcome: null, cancelError: null });
  }

  async cancel(jobId: string): Promise<void> {
    if (!this.conn) return;
    this.set({ cancelError: null });
    try {
      await this.conn.port.cancel(jobId);
    } catch (e) {
      this.set({ cancelError: { jobId, message: e instanceof DeviceNetworkError ? null : (e as Error).message } });
    }
    await this.refresh();
  }

  /**
   * The selected wire's program on the chosen device (its springback table), replayed step by
   * step for the simulation view. The collision step, if any, comes from the checks.
   */
  async simulate(): Promise<SimulationData | null> {
    const wire = this.host.selectedWire();
    if (!wire) {
      this.set({ simulation: { status: 'failed', data: null, problem: 'noWire', issues: [] } });
      return null;
    }
    const device = this.selectedDevice();
    const springback = springbackFor(device, wire.diameter);
    if (springback && springbackTableProblem(springback)) {
      this.set({ simulation: { status: 'failed', data: null, problem: 'badTable', issues: [] } });
      return null;
    }
    this.set({ simulation: { ...this.view.simulation, status: 'computing', problem: null } });
    try {
      const input = checkInput(wire, device);
      // The simulation shows the program whatever the device: its diameter or memory do not matter here.
      const check = await this.host.geometry.bendCheck({ ...input, device: undefined });
      if (!check.program) {
        this.set({ simulation: { status: 'failed', data: null, problem: 'invalid', issues: check.issues } });
        return null;
      }
      const radius = input.program.radius;
      const states = await this.host.geometry.bendStates(check.program.steps, { radius, ...(springback ? { springback } : {}) });
      const collision = check.issues.find((i) => i.code === 'COLLISION');
      const data: SimulationData = {
        wireId: wire.id,
        steps: check.program.detail,
        states,
        radius,
        diameter: wire.diameter,
        collisionStep: collision?.step ?? null,
        issues: check.issues,
        head: input.head ?? DEFAULT_HEAD,
      };
      this.set({ simulation: { status: 'ready', data, problem: null, issues: check.issues } });
      return data;
    } catch {
      this.set({ simulation: { status: 'failed', data: null, problem: 'invalid', issues: [] } });
      return null;
    }
  }

  closeSimulation(): void {
    this.set({ simulation: INITIAL.simulation });
  }

  dispose(): void {
    this.conn = null;
    this.generation++;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.store.clear();
  }
}

/** A device the user chose earlier that is not in the list now (unbound, deleted). */
const GHOST: UserDevice = { id: 0, devicename: '', online: false, state: 'offline', detail: null, diameterList: [], memory: 0, pending: 0 };

const NO_PORT: DevicePort = {
  devices: async () => [],
  queue: async () => [],
  bend: async () => {
    throw new DeviceNetworkError('not connected');
  },
  cancel: async () => {},
};
