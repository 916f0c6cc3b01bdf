// The bending machines' dock (key D): the devices the user may bend on (online, state, wire
// diameters, pending jobs; the chosen one remembered), "Bend" for the selected wire with the
// specification's messages, "Simulate", and the queue (state of each job, step n/m while bending,
// the failure's message, cancel while not started, "only my jobs"). Data: engine.devices.
import { useEffect } from 'react';
import { useEngineStore } from '../ui/useEngineStore.ts';
import { useLingui } from '@lingui/react/macro';
import { ensureBootstrap, hasPerm, useApp } from '../../app/store.ts';
import type { BendOutcome } from './bendFlow.ts';
import { browserDevicePort } from './browserPort.ts';
import type { DeviceController, DeviceView } from './DeviceController.ts';
import { deviceStateName, issueMessage, jobStatusName, outcomeMessage, wireTypeName } from './messages.ts';
import { CANCELLABLE, type QueueJob, type UserDevice } from './types.ts';
import type { EditorEngine, EditorState } from '../engine/EditorEngine.ts';
import type { WireDesign } from '../engine/document.ts';
import { EditorIcon } from '../ui/icons.tsx';
import { formatMm, formatNumber } from '../../i18n/format.ts';
import type { OrderDeviceInfo } from '../../../common/order-lifecycle.ts';

function useDeviceView(devices: DeviceController | null | undefined): DeviceView | null {
  return useEngineStore<DeviceView, DeviceView | null>(devices, (view) => view, null);
}

/** Whether the dock is open (re-renders only when that changes: the toolbar's pressed state). */
export function useDevicePanelOpen(engine: EditorEngine | null): boolean {
  const devices = engine?.devices;
  return useEngineStore(engine?.devices, (view) => view.open, false);
}

function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const BUTTON = 'inline-flex h-7 items-center gap-1.5 rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';

const STATE_DOT: Record<string, string> = {
  offline: 'bg-slate-300',
  idle: 'bg-emerald-500',
  bending: 'bg-sky-500',
  error: 'bg-red-500',
  maintenance: 'bg-amber-500',
};

const STATUS_BADGE: Record<string, string> = {
  queued: 'bg-slate-100 text-slate-700',
  sent: 'bg-slate-100 text-slate-700',
  acked: 'bg-indigo-50 text-indigo-700',
  bending: 'bg-sky-50 text-sky-700',
  done: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
  cancelled: 'bg-slate-100 text-slate-400 line-through',
};

function DeviceRow({ device, selected, onSelect }: { device: UserDevice; selected: boolean; onSelect: () => void }) {
  const { t, i18n } = useLingui();
  const state = device.online ? device.state : 'offline';
  const stateName = deviceStateName(i18n, state);
  const diameters = device.diameterList.map((d) => formatNumber(d, { min: 1, max: 2 }, i18n.locale)).join(' / ');
  const pending = device.pending;
  return (
    <li>
      <label
        className={`flex cursor-pointer items-start gap-2 rounded-md border bg-white p-2 text-xs ${selected ? 'border-primary ring-1 ring-primary' : 'border-slate-200 hover:border-slate-300'}`}
        data-testid="device-row"
        data-device-id={device.id}
        data-online={device.online ? 'true' : 'false'}
        data-state={state}
      >
        <input type="radio" name="bend-device" className="mt-0.5 size-3.5 accent-primary" checked={selected} onChange={onSelect} aria-label={device.devicename} />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-1.5">
            <span className="truncate text-sm font-medium text-slate-800">{device.devicename}</span>
            <span className={`size-2 shrink-0 rounded-full ${STATE_DOT[state] ?? 'bg-slate-400'}`} aria-hidden="true" />
            <span className="shrink-0 text-slate-600" data-testid="device-state">
              {device.online ? t`Online` : t`Offline`}
              {device.online && ` · ${stateName}`}
            </span>
          </span>
          <span className="mt-0.5 block text-slate-500 tabular-nums">
            {t`Wire ${diameters} mm`} · {t`${pending} pending`}
          </span>
          {device.detail && <span className="mt-0.5 block truncate text-slate-400">{device.detail}</span>}
        </span>
      </label>
    </li>
  );
}

function JobRow({ job, admin, onCancel }: { job: QueueJob; admin: boolean; onCancel: () => void }) {
  const { t, i18n } = useLingui();
  const status = jobStatusName(i18n, job.status);
  const step = job.step ?? 0;
  const steps = job.steps;
  const time = job.createTime.slice(11, 16);
  const device = job.deviceName ?? `#${job.deviceId}`;
  const seconds = job.bendMs !== null ? formatNumber(job.bendMs / 1000, { fixed: 1 }, i18n.locale) : null;
  // People know an order by its case number; the id only where an older server sends none.
  const orderNo = job.caseNo || (job.orderId !== null ? `#${job.orderId}` : null);
  return (
    <li className="rounded-md border border-slate-200 bg-white px-2 py-1.5 text-xs" data-testid="queue-job" data-job-id={job.jobId} data-status={job.status}>
      <div className="flex items-center gap-2">
        <span className={`rounded px-1.5 py-0.5 font-medium ${STATUS_BADGE[job.status] ?? ''}`} data-testid="job-status">
          {status}
          {job.status === 'bending' && <span className="tabular-nums"> {t`step ${step}/${steps}`}</span>}
        </span>
        <span className="min-w-0 flex-1 truncate text-slate-600">{device}</span>
        <span className="shrink-0 text-slate-400 tabular-nums">{time}</span>
        {(job.cancellable ?? CANCELLABLE.includes(job.status)) && (
          <button type="button" className="shrink-0 rounded px-1.5 py-0.5 text-slate-500 hover:bg-red-50 hover:text-red-700" onClick={onCancel} data-testid="job-cancel">
            {t`Cancel`}
          </button>
        )}
      </div>
      <p className="mt-0.5 text-slate-400">
        {t`${steps} steps`}
        {orderNo !== null && ` · ${t`Case ${orderNo}`}`}
        {admin && job.userName && ` · ${job.userName}`}
        {seconds !== null && job.status === 'done' && ` · ${t`${seconds} s`}`}
      </p>
      {job.status === 'failed' && (
        <p className="mt-0.5 text-red-700" data-testid="job-error">
          {job.errorMessage || job.errorCode}
        </p>
      )}
    </li>
  );
}

function Outcome({ outcome, device, wire, onDismiss }: { outcome: BendOutcome; device: UserDevice | null; wire: WireDesign | null; onDismiss: () => void }) {
  const { t, i18n } = useLingui();
  if (outcome.kind === 'sent') {
    const steps = outcome.steps;
    return (
      <div role="status" className="mt-2 rounded-md border border-emerald-200 bg-emerald-50 px-2 py-1.5 text-xs text-emerald-800" data-testid="bend-outcome" data-kind="sent">
        <p data-testid="bend-message">{t`Sent to the device: ${steps} steps queued.`}</p>
        {outcome.warnings.map((w, i) => (
          <p key={i} className="mt-0.5 text-amber-700" data-testid="bend-warning">
            {issueMessage(i18n, w, { device, diameter: wire?.diameter ?? 0, steps })}
          </p>
        ))}
      </div>
    );
  }
  const lines =
    outcome.kind === 'invalid' ? outcome.issues.map((i) => issueMessage(i18n, i, { device, diameter: wire?.diameter ?? 0, steps: outcome.steps })) : [outcomeMessage(i18n, outcome)];
  return (
    <div role="alert" className="mt-2 flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-2 py-1.5 text-xs text-red-800" data-testid="bend-outcome" data-kind={outcome.kind}>
      <div className="min-w-0 flex-1" data-testid="bend-message">
        {lines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
      <button type="button" className="shrink-0 rounded px-1 text-red-700 hover:bg-red-100" onClick={onDismiss} aria-label={t`Dismiss`}>
        ×
      </button>
    </div>
  );
}

/** The open order's machine (its latest bend job's, with its state) and its wires' jobs (getDeviceInfo). */
function OrderDevice({ info, wires }: { info: OrderDeviceInfo | null; wires: readonly WireDesign[] }) {
  const { t, i18n } = useLingui();
  const device = info?.device ?? null;
  const wireName = (id: string): string => {
    const index = wires.findIndex((w) => w.id === id);
    const wire = wires[index];
    return wire ? `${index + 1}. ${wireTypeName(i18n, wire.type)}` : id || t`Wire`;
  };
  return (
    <section className="border-b border-slate-200 px-3 py-3" aria-label={t`This order`} data-testid="order-device">
      <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`This order`}</h3>
      {info === null ? (
        <p className="text-xs text-slate-500">{t`Loading…`}</p>
      ) : !device ? (
        <p className="text-xs text-slate-500" data-testid="order-device-none">
          {t`No wire of this order was sent to a machine yet.`}
        </p>
      ) : (
        <p className="flex items-center gap-1.5 text-xs text-slate-700" data-testid="order-device-name" data-state={device.status}>
          <span className={`size-2 shrink-0 rounded-full ${STATE_DOT[device.status] ?? 'bg-slate-300'}`} aria-hidden />
          <span className="min-w-0 flex-1 truncate">{t`Sent to ${device.name}`}</span>
          <span className="shrink-0 text-slate-600">{deviceStateName(i18n, device.status)}</span>
        </p>
      )}
      {info && info.jobs.length > 0 && (
        <ol className="mt-1.5 space-y-1">
          {info.jobs.map((job) => (
            <li key={job.jobId} className="flex items-center gap-2 text-xs" data-testid="order-job" data-status={job.status}>
              <span className={`rounded px-1.5 py-0.5 font-medium ${STATUS_BADGE[job.status] ?? ''}`}>{jobStatusName(i18n, job.status as QueueJob['status'])}</span>
              <span className="min-w-0 flex-1 truncate text-slate-700">{wireName(job.wire)}</span>
              <span className="shrink-0 text-slate-400 tabular-nums">{job.updateTime}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function DevicePanel({ engine, state, orderId }: { engine: EditorEngine | null; state: EditorState; orderId: number | null }) {
  const { t, i18n } = useLingui();
  const devices = engine?.devices ?? null;
  const view = useDeviceView(devices);
  const { user, loaded } = useApp();
  const userId = user?.id ?? null;

  // The editor's route does not load the user and permissions as the back office's pages do.
  useEffect(() => void ensureBootstrap(), []);
  useEffect(() => {
    if (!devices || userId === null) return undefined;
    devices.connect({ port: browserDevicePort(), userId, admin: hasPerm('device:info:all'), orderId, storage: localStore() });
    return () => devices.disconnect();
    // `loaded`: the permissions arrive with the menu, after the user.
  }, [devices, userId, orderId, loaded]);

  if (!engine || !view || !view.open) return null;
  // The selection lives in engine.wires (the wire feature); read on every render of the page.
  void state.revision;
  const wire = (engine as unknown as { wires?: { selected(): WireDesign | null } }).wires?.selected() ?? null;
  const device = devices!.selectedDevice();
  const wireLabel = wire ? `${wireTypeName(i18n, wire.type)}, ${formatMm(wire.diameter, 1, i18n.locale)}` : null;
  const admin = view.admin;

  return (
    <aside className="flex w-80 shrink-0 flex-col overflow-y-auto border-l border-slate-200 bg-slate-50" aria-label={t`Bending machines`} data-testid="device-panel">
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold text-slate-800">{t`Bending machines`}</h2>
        <button
          type="button"
          className="inline-flex size-7 items-center justify-center rounded text-slate-500 hover:bg-slate-100"
          onClick={() => devices!.setOpen(false)}
          aria-label={t`Close`}
          title={t`Close`}
        >
          <EditorIcon name="x" className="size-4" />
        </button>
      </div>

      <section className="border-b border-slate-200 px-3 py-3" aria-label={t`Devices`}>
        <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Devices`}</h3>
        {view.offline && (
          <p role="alert" className="mb-2 text-xs text-amber-700">
            {t`The device list could not be refreshed; retrying.`}
          </p>
        )}
        {!view.loaded ? (
          <p className="text-xs text-slate-500">{t`Loading…`}</p>
        ) : view.devices.length === 0 ? (
          <p className="text-xs text-slate-500" data-testid="no-devices">
            {t`No device is bound to you. Please contact your administrator.`}
          </p>
        ) : (
          <ul className="space-y-1.5" role="radiogroup" aria-label={t`Device to bend on`}>
            {view.devices.map((d) => (
              <DeviceRow key={d.id} device={d} selected={d.id === view.deviceId} onSelect={() => devices!.selectDevice(d.id)} />
            ))}
          </ul>
        )}
      </section>

      {orderId !== null && <OrderDevice info={view.orderDevice} wires={state.document.wires ?? []} />}

      <section className="border-b border-slate-200 px-3 py-3" aria-label={t`Bend`}>
        <h3 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Bend`}</h3>
        <p className="text-xs text-slate-600" data-testid="bend-wire">
          {wireLabel ? t`Selected wire: ${wireLabel}` : t`No wire selected.`}
        </p>
        <div className="mt-2 flex gap-2">
          <button
            type="button"
            className={`${BUTTON} border-primary bg-primary text-white hover:bg-primary-dark`}
            onClick={() => void devices!.bend()}
            disabled={view.sending}
            data-testid="bend-send"
          >
            <EditorIcon name="send" className="size-3.5" />
            {view.sending ? t`Sending…` : t`Bend`}
          </button>
          <button
            type="button"
            className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
            onClick={() => void devices!.simulate()}
            disabled={view.simulation.status === 'computing'}
            data-testid="bend-simulate"
          >
            <EditorIcon name="play" className="size-3.5" />
            {t`Simulate`}
          </button>
        </div>
        {view.outcome && <Outcome outcome={view.outcome} device={device} wire={wire} onDismiss={() => devices!.dismissOutcome()} />}
        {view.simulation.problem && (
          <div role="alert" className="mt-2 text-xs text-red-700" data-testid="simulate-problem">
            {view.simulation.problem === 'noWire' ? (
              <p>{outcomeMessage(i18n, { kind: 'noWire' })}</p>
            ) : view.simulation.problem === 'badTable' ? (
              <p>{outcomeMessage(i18n, { kind: 'badTable', diameter: wire?.diameter ?? 0 })}</p>
            ) : (
              view.simulation.issues
                .filter((i) => i.severity === 'error')
                .map((i, k) => <p key={k}>{issueMessage(i18n, i, { device, diameter: wire?.diameter ?? 0 })}</p>)
            )}
          </div>
        )}
      </section>

      <section className="px-3 py-3" aria-label={t`Queue`} data-testid="queue">
        <div className="mb-2 flex items-center justify-between">
          <h3 className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Queue`}</h3>
          <label className="flex items-center gap-1.5 text-xs text-slate-600" title={admin ? undefined : t`You see only your own jobs`}>
            <input
              type="checkbox"
              className="size-3.5 accent-primary"
              checked={view.mine}
              disabled={!view.admin}
              onChange={(e) => devices!.setMine(e.target.checked)}
              data-testid="queue-mine"
            />
            {t`Only my jobs`}
          </label>
        </div>
        <p className="mb-2 text-xs text-slate-500" data-testid="queue-help">
          {t`A job goes to an online machine at once ("Sent"); it waits as "Queued" only while the machine is offline.`}
        </p>
        {view.cancelError && (
          <p role="alert" className="mb-2 text-xs text-red-700">
            {view.cancelError.message ?? t`Network exception, failed to send data.`}
          </p>
        )}
        {view.queue.length === 0 ? (
          <p className="text-xs text-slate-500">{t`No bending jobs yet.`}</p>
        ) : (
          <ol className="space-y-1.5">
            {view.queue.map((job) => (
              <JobRow key={job.jobId} job={job} admin={view.admin} onCancel={() => void devices!.cancel(job.jobId)} />
            ))}
          </ol>
        )}
      </section>
    </aside>
  );
}
