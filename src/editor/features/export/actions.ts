// The STL export's action: opens the dialog that picks the parts and the files.
import { msg } from '@lingui/core/macro';
import { hasModel, type ActionHost, type EditorAction } from '../../engine/actions.ts';

export interface ExportActionHost extends ActionHost {
  readonly stlExport: { open(): void };
}

export const exportActions = [
  { id: 'export.stl', keys: [], label: msg`Export STL`, icon: 'export', run: (editor) => editor.stlExport.open(), enabled: hasModel },
] as const satisfies readonly EditorAction<ExportActionHost>[];
