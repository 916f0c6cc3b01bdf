/** The back-office kit: declarative CRUD pages and their parts. See docs/kit.md. */
export { CrudPage, type CrudHandle, type CrudPageProps } from './CrudPage.tsx';
export { KitTable, OP_WIDTH, type KitTableProps } from './Table.tsx';
export { Pagination, pagerItems } from './Pagination.tsx';
export { KeywordSearch, SearchDrawer, KEYWORD_DEBOUNCE_MS } from './Toolbar.tsx';
export { KitForm, LABEL_WIDTH, type FormHandle, type KitFormProps } from './Form.tsx';
export { Field, ConfigError, toTree } from './fields.tsx';
export { UpsertDialog, type UpsertDialogProps, type UpsertTarget } from './UpsertDialog.tsx';
export { useConfirm, type ConfirmOptions } from './confirm.tsx';
export { PagedDrawer, usePagedEntries, DRAWER_PAGE_SIZE, type PagedEntries } from './PagedDrawer.tsx';
export { createService, permsFor, permPrefix, readPage, ACTIONS } from './service.ts';
export { useOptions, setDict, dictOptions } from './dict.ts';
export { uploadFile, uploadUrls, useFileUrl, needsToken, UPLOAD_URL, type UploadOptions } from './upload.ts';
export { useTableState, readState, writeState, stateQuery, DEFAULT_PAGE, DEFAULT_SIZE, PAGE_SIZES, type TableState, type StateMode } from './urlState.ts';
export { submitData, initialForm, cleanQuery, getPath, setPath, propPath, rangeProps, isEmptyValue } from './values.ts';
export type * from './types.ts';
