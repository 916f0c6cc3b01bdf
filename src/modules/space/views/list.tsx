/** File space: your uploads by folder; upload (up to 9 files at once, with progress), download, rename, delete. */
import { useEffect, useRef, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../../api/client.ts';
import { hasPerm } from '../../../app/store.ts';
import { CrudPage, UpsertDialog, createService, useConfirm, type CrudHandle, type FormItem, type Option, type TableColumn, type UpsertTarget } from '../../../kit/index.ts';
import { Icon } from '../../../ui/icons.tsx';
import { toast } from '../../../ui/toast.tsx';
import { downloadFile, formatSize, uploadFiles } from '../../order/upload.ts';
import { formatCount } from '../../../i18n/format.ts';

interface Folder {
  id: number;
  name: string;
  parentId: number | null;
}
const MAX_FILES = 9;
const folderService = createService('/admin/space/type');

export default function SpaceList() {
  const { t, i18n } = useLingui();
  const crud = useRef<CrudHandle>(null);
  const input = useRef<HTMLInputElement>(null);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [folder, setFolder] = useState<number | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const loadFolders = () => {
    // Folders are their own permission; asking without it would only be refused (an error toast).
    if (!hasPerm('space:type:list')) return;
    request<Folder[]>({ url: '/admin/space/type/list', method: 'POST', data: {}, silent: true }).then(setFolders, () => setFolders([]));
  };
  useEffect(loadFolders, []);

  const kinds: Option[] = [
    { label: t`Image`, value: 'image', color: '#0891b2' },
    { label: t`Video`, value: 'video', color: '#7c3aed' },
    { label: t`Audio`, value: 'audio', color: '#db2777' },
    { label: 'Word', value: 'word', color: '#2563eb' },
    { label: 'Excel', value: 'excel', color: '#16a34a' },
    { label: 'PPT', value: 'ppt', color: '#ea580c' },
    { label: 'PDF', value: 'pdf', color: '#dc2626' },
    { label: t`Archive`, value: 'rar', color: '#a16207' },
    { label: t`STL model`, value: 'model', color: '#4165d7' },
    { label: t`File`, value: 'file', color: '#64748b' },
  ];
  const columns: TableColumn[] = [
    {
      prop: 'name',
      label: t`File name`,
      sortable: true,
      minWidth: 220,
      render: (r) => (
        <span className="flex min-w-0 items-center gap-2">
          {r.kind === 'image' ? (
            <img src={String(r.url)} alt="" loading="lazy" className="size-8 shrink-0 rounded border border-slate-200 object-cover" />
          ) : (
            <Icon name="file" className="size-5 shrink-0 text-slate-400" />
          )}
          <span className="truncate" title={String(r.name)}>{String(r.name)}</span>
        </span>
      ),
    },
    { prop: 'kind', label: t`Kind`, dict: kinds, sortable: true, width: 110 },
    { prop: 'size', label: t`Size`, sortable: true, width: 100, render: (r) => formatSize(Number(r.size ?? 0)) },
    { prop: 'triangleCount', label: t`Triangles`, width: 110, render: (r) => (r.triangleCount == null ? '—' : formatCount(Number(r.triangleCount), i18n.locale)) },
    { prop: 'createTime', label: t`Uploaded`, sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
    { prop: 'name', label: t`File name`, required: true },
    { prop: 'classifyId', label: t`Folder`, type: 'select', options: folders.map((f) => ({ label: f.name, value: f.id })) },
  ];
  const search: FormItem[] = [{ prop: 'kind', label: t`Kind`, type: 'select', options: kinds }];

  const upload = async (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (!files.length) return;
    if (files.length > MAX_FILES) {
      toast.error(t`Upload failed, please try again: at most ${MAX_FILES} files per upload`);
      return;
    }
    setProgress(0);
    try {
      await uploadFiles(files, { classifyId: folder, onProgress: setProgress });
      toast.success(t`Upload successful`);
      crud.current?.refresh();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
    } finally {
      setProgress(null);
    }
  };

  // A folder is named in the kit's form dialog (validated, in the UI's style; a native prompt was
  // neither) and deleted only after a confirmation.
  const [folderTarget, setFolderTarget] = useState<UpsertTarget | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const removeFolder = async (f: Folder) => {
    const name = f.name;
    const ok = await confirm({ message: t`Delete the folder "${name}"?`, danger: true });
    if (!ok) return;
    await request({ url: '/admin/space/type/delete', method: 'POST', data: { ids: [f.id] } });
    if (folder === f.id) setFolder(null);
    loadFolders();
  };

  const folderButton = (id: number | null, name: string) => (
    <button
      type="button"
      onClick={() => setFolder(id)}
      aria-current={folder === id || undefined}
      className={`flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm ${folder === id ? 'bg-primary-light-9 font-medium text-primary' : 'text-slate-700 hover:bg-slate-100'}`}
    >
      <Icon name="folder" className="size-4 shrink-0" />
      <span className="truncate">{name}</span>
    </button>
  );

  return (
    // Same frame as the dictionary and article pages; the folders stay reachable on mini screens
    // (above the list) instead of disappearing.
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4 md:flex-row">
      <aside className="aw-card flex w-full shrink-0 flex-col gap-1 p-2 md:w-52 md:self-start" aria-label={t`Folders`}>
        {folderButton(null, t`All files`)}
        {folders.map((f) => (
          <div key={f.id} className="group flex items-center">
            {folderButton(f.id, f.name)}
            {hasPerm('space:type:delete') && (
              <button type="button" className="aw-btn-icon size-6 opacity-0 group-hover:opacity-100" aria-label={t`Delete folder ${f.name}`} onClick={() => void removeFolder(f).catch(() => undefined)}>
                <Icon name="x" className="size-3.5" />
              </button>
            )}
          </div>
        ))}
        {hasPerm('space:type:add') && (
          <button type="button" className="mt-1 rounded px-2 py-1.5 text-left text-sm text-primary hover:bg-slate-100" onClick={() => setFolderTarget({ mode: 'add' })}>
            + {t`New folder`}
          </button>
        )}
      </aside>
      <div className="min-w-0 flex-1 [&>div]:p-0 sm:[&>div]:p-0">
        <CrudPage
          ref={crud}
          service={createService('/admin/space/info')}
          query={folder ? { classifyId: folder } : {}}
          columns={columns}
          items={items}
          search={search}
          perms={{ add: false }}
          op={['update', 'delete']}
          rowActions={[{ label: t`Download`, onClick: (r) => void downloadFile(String(r.url), String(r.name)).catch((e: Error) => toast.error(e.message)) }]}
          toolbar={
            <>
              <input ref={input} type="file" multiple className="sr-only" aria-label={t`Upload files`} onChange={(e) => void upload(e.target.files).finally(() => (e.target.value = ''))} />
              <button type="button" className="aw-btn h-8 bg-primary px-3 text-white hover:bg-primary-dark disabled:opacity-60" disabled={progress !== null} onClick={() => input.current?.click()}>
                <Icon name="file" className="size-4" />
                {progress === null ? t`Upload` : `${Math.round(progress * 100)}%`}
              </button>
            </>
          }
        />
      </div>
      <UpsertDialog
        target={folderTarget}
        onClose={() => setFolderTarget(null)}
        onSaved={loadFolders}
        service={folderService}
        items={[{ prop: 'name', label: t`Folder name`, required: true }]}
        title={t`New folder`}
        width="420px"
      />
      {confirmDialog}
    </div>
  );
}
