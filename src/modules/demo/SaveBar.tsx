/** Title and save button of an editor page. */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { toast } from '../../ui/toast.tsx';
import { canSave, saveArticle, type ArticleFormat } from './articles.ts';

export function SaveBar({ format, content, onSaved }: { format: ArticleFormat; content: string; onSaved: () => void }) {
  const { t } = useLingui();
  const [title, setTitle] = useState('');
  const [saving, setSaving] = useState(false);
  if (!canSave()) return null;
  const save = async () => {
    setSaving(true);
    try {
      await saveArticle({ title: title.trim() || t`Untitled`, format, content });
      toast.success(t`Save successful`);
      onSaved();
    } catch {
      // The client showed the error.
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2">
      <input className="aw-input max-w-sm flex-1" aria-label={t`Title`} placeholder={t`Title`} value={title} maxLength={255} onChange={(e) => setTitle(e.target.value)} />
      <button type="button" className="aw-btn-primary" disabled={saving} onClick={() => void save()}>
        {t`Save`}
      </button>
    </div>
  );
}
