// The editor's toolbar: groups of icon buttons, each with a tooltip naming the action and its
// shortcut. Every button runs an action of the engine's registry (the same as its key).
import type { ReactNode } from 'react';
import { Tooltip } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { describeAction, type ActionId } from '../features/actions.ts';
import type { EditorEngine, EditorState } from '../engine/EditorEngine.ts';
import { EditorIcon, type EditorIconName } from './icons.tsx';
import { keyName, LATER_TOOLS } from './labels.ts';

export function ToolButton(props: {
  label: string;
  icon: EditorIconName;
  shortcut?: string | undefined;
  onClick?: () => void;
  disabled?: boolean;
  pressed?: boolean | undefined;
  testId?: string;
}) {
  const { label, icon, shortcut, onClick, disabled, pressed, testId } = props;
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <button
          type="button"
          aria-label={label}
          aria-pressed={pressed}
          aria-keyshortcuts={shortcut}
          data-testid={testId}
          disabled={disabled}
          onClick={onClick}
          className={`inline-flex size-9 items-center justify-center rounded-md transition-colors focus-visible:outline-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-35 ${
            pressed ? 'bg-primary text-white shadow-inner hover:bg-primary-dark' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
          }`}
        >
          <EditorIcon name={icon} className="size-5" />
        </button>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content side="bottom" sideOffset={6} className="z-50 rounded bg-slate-900 px-2 py-1 text-xs text-white shadow-lg">
          {label}
          {shortcut && <kbd className="ml-2 rounded bg-slate-700 px-1 font-sans text-[11px] text-slate-200">{shortcut}</kbd>}
          <Tooltip.Arrow className="fill-slate-900" />
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

function Group({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="flex items-center gap-0.5 border-r border-slate-200 px-1.5 last:border-r-0">
      {children}
    </div>
  );
}

export function Toolbar({ engine, state, leading }: { engine: EditorEngine | null; state: EditorState; leading: ReactNode }) {
  const { t } = useLingui();
  const action = (id: ActionId) => {
    const { label, icon, keys, toggle } = describeAction(id);
    const shortcut = engine ? keys.map(keyName).join(' / ') : undefined;
    return (
      <ToolButton
        key={id}
        label={t(label)}
        icon={icon}
        shortcut={shortcut}
        testId={`action-${id}`}
        disabled={!engine || !engine.actions.enabled(id)}
        pressed={engine && toggle ? engine.actions.active(id) : undefined}
        onClick={() => engine?.actions.run(id)}
      />
    );
  };
  // `state` is read so that enabled/pressed follow every engine change.
  void state.revision;
  return (
    <Tooltip.Provider delayDuration={300}>
      <div role="toolbar" aria-label={t`Editor toolbar`} className="flex min-h-12 flex-wrap items-center border-b border-slate-200 bg-white px-1.5 py-1 shadow-sm">
        <Group label={t`File`}>{leading}</Group>
        <Group label={t`History`}>
          {action('undo')}
          {action('redo')}
        </Group>
        <Group label={t`View`}>
          {action('fit')}
          {action('view.front')}
          {action('view.back')}
          {action('view.left')}
          {action('view.right')}
          {action('view.top')}
          {action('view.bottom')}
        </Group>
        <Group label={t`Display`}>
          {action('bite.toggle')}
          {action('clip.toggle')}
          {action('teeth.toggle')}
          {action('tool.teeth')}
        </Group>
        <Group label={t`Bite`}>
          {action('bite.scan')}
          {action('bite.rerun')}
          {action('tool.bite')}
        </Group>
        <Group label={t`Analysis`}>
          {action('tool.measure')}
          {action('tool.direction')}
          {action('heatmap.undercut')}
        </Group>
        <Group label={t`Design`}>
          {action('tool.straighten')}
          {action('tool.base')}
          {action('tool.smooth')}
          {action('slot.cut')}
          {action('tool.wire')}
          {action('export.stl')}
          {LATER_TOOLS.map((tool) => (
            <ToolButton key={tool.id} label={`${t(tool.label)} · ${t`coming soon`}`} icon={tool.icon} disabled />
          ))}
        </Group>
        <Group label={t`Bending`}>{action('devices.toggle')}</Group>
      </div>
    </Tooltip.Provider>
  );
}
