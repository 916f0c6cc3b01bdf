// The /bend page: the design editor. /bend?orderId=N opens the order's models and its saved
// design (autosaved); /bend alone opens a local STL file (button or drag and drop).
// Layout: toolbar on top, viewport with the side panel on the right, status bar below.
import { useLayoutEffect, useMemo, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Link, useRouterState } from '@tanstack/react-router';
import { useEditor } from './useEditor.ts';
import { errorMessage } from './ui/errors.ts';
import { EditorIcon } from './ui/icons.tsx';
import { SidePanel } from './ui/SidePanel.tsx';
import { HeatmapLegend } from './features/analysis/HeatmapLegend.tsx';
import { ViewStatus } from './ui/ViewStatus.tsx';
import { DevicePanel, useDevicePanelOpen } from './device/DevicePanel.tsx';
import { ExportStlDialog } from './ui/ExportStlDialog.tsx';
import { BendSimulation } from './device/BendSimulation.tsx';
import { StatusBar } from './ui/StatusBar.tsx';
import { Toolbar, ToolButton } from './ui/Toolbar.tsx';
import { orderIdOf } from './order/orderId.ts';
import { useFrameAttributes } from './ui/frameAttributes.ts';
import { OrderHeader, OrderOutcome } from './order/OrderHeader.tsx';
import { formatCount } from '../i18n/format.ts';
import { ChatButton } from '../modules/chat/ChatButton.tsx';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

export default function BendPage() {
  const { t, i18n } = useLingui();
  // From the router, so that going from one order to another on this page reopens.
  const searchStr = useRouterState({ select: (s) => s.location.searchStr });
  const orderId = useMemo(() => orderIdOf(searchStr), [searchStr]);
  const { canvasRef, overlayRef, engine, state, order, save, saveNow } = useEditor(orderId);
  const frameRef = useFrameAttributes(engine);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { loading, error, model } = state;
  const number = (n: number): string => formatCount(n, i18n.locale);
  const local = orderId === null;
  const dockOpen = useDevicePanelOpen(engine); // the toolbar's machines button follows the dock
  // The dock takes its width from the viewport: frame the models in what is left (and again when
  // it closes), rather than leaving them cut off under it.
  const dockSeen = useRef(dockOpen);
  useLayoutEffect(() => {
    if (dockSeen.current === dockOpen) return;
    dockSeen.current = dockOpen;
    engine?.viewportResized();
  }, [engine, dockOpen]);

  const open = (file: File | undefined): void => {
    if (file && engine && local) void engine.openStl(file);
  };
  const onFileChosen = (e: ChangeEvent<HTMLInputElement>): void => {
    open(e.target.files?.[0]);
    e.target.value = ''; // choosing the same file again fires change again
  };
  const onDragOver = (e: DragEvent<HTMLElement>): void => {
    if (!local || !hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };
  const onDragLeave = (e: DragEvent<HTMLElement>): void => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (e: DragEvent<HTMLElement>): void => {
    if (!local || !hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    open(e.dataTransfer.files[0]);
  };

  const percent = loading ? Math.round(loading.fraction * 100) : 0;
  const loadingName = loading?.fileName ?? '';
  const modelName = model?.name ?? '';
  const triangles = number(model?.triangles ?? 0);
  const vertices = number(model?.vertices ?? 0);
  const modelsLoading = state.models.some((m) => m.status === 'loading');
  const readyTriangles = state.models.filter((m) => m.status === 'ready').reduce((n, m) => n + m.triangles, 0);
  const caseNo = order.status === 'ready' ? order.order.caseNo : '';
  const patient = order.status === 'ready' ? order.order.patientName : '';
  const orderError = order.status === 'failed' ? order.message : '';

  const leading = (
    <>
      <Link
        to="/"
        className="inline-flex size-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary"
        aria-label={t`Back to the back office`}
        title={t`Back to the back office`}
      >
        <EditorIcon name="home" className="size-5" />
      </Link>
      {local && (
        <>
          <ToolButton label={t`Open STL`} icon="open" onClick={() => fileInput.current?.click()} disabled={!engine || !state.viewportReady} testId="open-stl" />
          <input ref={fileInput} type="file" accept=".stl,model/stl,application/sla" className="hidden" onChange={onFileChosen} data-testid="open-stl-input" />
        </>
      )}
    </>
  );

  return (
    <div className="flex h-screen w-full flex-col bg-slate-100 text-slate-800">
      <div className="flex items-stretch border-b border-slate-200 bg-white">
        <div className="min-w-0 flex-1">
          <Toolbar engine={engine} state={state} leading={leading} />
        </div>
        <div className="flex shrink-0 items-center gap-2 border-b border-slate-200 px-3 text-sm shadow-sm">
          {order.status === 'ready' && (
            <p className="text-right leading-tight" data-testid="order-title">
              <span className="block font-semibold text-slate-800">{patient}</span>
              <span className="block text-xs text-slate-500">{caseNo}</span>
            </p>
          )}
          {orderId !== null && order.status === 'ready' && <OrderHeader engine={engine} orderId={orderId} />}
          {orderId !== null && order.status === 'ready' && <ChatButton orderId={orderId} />}
          {(modelsLoading || loading) && (
            <button type="button" className="h-7 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-600 hover:bg-slate-50" onClick={() => engine?.cancelLoad()}>
              {t`Cancel`}
            </button>
          )}
        </div>
      </div>

      <OrderOutcome engine={engine} />
      {error && (
        <div role="alert" className="flex items-start gap-3 border-b border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800" data-error-code={error.code}>
          <p className="flex-1">
            {error.fileName && <span className="font-semibold">{error.fileName}: </span>}
            {t(errorMessage(error))}
          </p>
          {error.code !== 'WEBGL_UNAVAILABLE' && (
            <button type="button" className="shrink-0 rounded px-1.5 text-red-700 hover:bg-red-100" onClick={() => engine?.dismissError()} aria-label={t`Dismiss`}>
              ×
            </button>
          )}
        </div>
      )}
      {order.status === 'failed' && (
        <div role="alert" className="border-b border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800" data-testid="order-error">
          {t`The order could not be opened: ${orderError}`}
        </div>
      )}

      <div className="flex min-h-0 flex-1">
        <div
          className="relative min-w-0 flex-1"
          ref={frameRef}
          data-testid="viewport"
          data-model-triangles={local ? (model ? String(model.triangles) : '') : readyTriangles ? String(readyTriangles) : ''}
          data-view={state.view ?? ''}
          data-tool={state.tool ?? ''}
          data-tool-phase={state.toolPhase}
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
        >
          <canvas
            ref={canvasRef}
            className={`block h-full w-full touch-none outline-none ${state.tool ? 'cursor-crosshair' : ''}`}
            tabIndex={0}
            aria-label={t`3D view of the model`}
          />
          <div ref={overlayRef} className="editor-overlay pointer-events-none absolute inset-0 overflow-hidden" aria-live="polite" />
          {engine && <HeatmapLegend analysis={engine.analysis} engine={engine} />}
          {engine && <ViewStatus engine={engine} />}
          {engine && <BendSimulation devices={engine.devices} />}
          {loading && (
            <div className="absolute top-3 left-1/2 flex -translate-x-1/2 items-center gap-2 rounded-lg bg-white/95 px-3 py-2 text-sm text-slate-600 shadow">
              <div
                role="progressbar"
                aria-label={t`Loading ${loadingName}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="h-2 w-40 overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
              </div>
              <span className="tabular-nums">
                {loading.stage === 'read' ? t`Reading ${loadingName}…` : t`Processing ${loadingName}…`} {percent}%
              </span>
            </div>
          )}
          {local && !model && !loading && state.viewportReady && (
            <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-6">
              <p className="rounded-lg bg-white/80 px-4 py-3 text-center text-sm text-slate-500 shadow-sm">{t`Open an STL file or drop it here.`}</p>
            </div>
          )}
          {dragging && (
            <div className="pointer-events-none absolute inset-3 flex items-center justify-center rounded-xl border-2 border-dashed border-primary bg-primary-light-9/70">
              <p className="text-base font-medium text-primary">{t`Drop the STL file to open it`}</p>
            </div>
          )}
          {local && model && (
            <p className="pointer-events-none absolute top-2 right-3 truncate rounded bg-white/80 px-2 py-0.5 text-xs text-slate-600" role="status" data-testid="model-status">
              {t`${modelName}: ${triangles} triangles, ${vertices} vertices`}
            </p>
          )}
        </div>
        <DevicePanel engine={engine} state={state} orderId={orderId} />
        <ExportStlDialog engine={engine} />
        <SidePanel engine={engine} state={state} caseNo={caseNo} />
      </div>
      <StatusBar engine={engine} state={state} save={save} saving={!local && order.status === 'ready'} onRetry={saveNow} />
    </div>
  );
}
