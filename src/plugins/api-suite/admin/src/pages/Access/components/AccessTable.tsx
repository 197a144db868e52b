import { useState, type DependencyList, type ReactNode } from 'react';
import type { Page } from '../../../../../shared/http';
import type { ApiKey, Consumer } from '../../../api';
import { PagedTable } from '../../../components/DataTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { useFeaturePermissions } from '../../../hooks/useFeaturePermissions';
import { useLoad, type Loaded } from '../../../hooks/useLoad';
import { useT } from '../../../utils/useT';
import { GrantPlanModal } from './GrantPlanModal';

/** A consumer a row offers to grant a plan, with the plan they are on now (and their grant). */
interface GrantTarget {
  owner: Consumer;
  ownerPlan: ApiKey['owner_plan'];
}

export interface AccessList<T> {
  /** The page of the list on screen. */
  list: Loaded<Page<T>>;
  setPage: (page: number) => void;
  /** Whether the editor may change access: the actions column, and what a row offers in it. */
  canManage: boolean;
  /** Opens the grant-a-plan dialog for a row's consumer; the list is loaded again once it is saved. */
  grant: (owner: Consumer, ownerPlan: ApiKey['owner_plan']) => void;
  granting: GrantTarget | null;
  closeGrant: () => void;
}

/**
 * The state the Keys and Consumers tabs share: a page of their list, loaded again as the page turns
 * or `deps` change, who may manage access, and which consumer the grant dialog is open for.
 */
export function useAccessList<T>(load: (page: number) => Promise<Page<T>>, deps: DependencyList): AccessList<T> {
  const { canManage } = useFeaturePermissions('access');
  const [page, setPage] = useState(1);
  const list = useLoad(() => load(page), [...deps, page]);
  const [granting, setGranting] = useState<GrantTarget | null>(null);
  return {
    list,
    setPage,
    canManage,
    grant: (owner, ownerPlan) => setGranting({ owner, ownerPlan }),
    granting,
    closeGrant: () => setGranting(null),
  };
}

/**
 * A list of the Access page laid out as the Keys and Consumers tabs lay theirs: the count (and
 * `action`) over a non-empty list, the table headed by `columns` (`access.<name>.column.*`, and
 * an actions column for an editor who may manage access), and the grant-a-plan dialog.
 */
export function AccessTable<T>({
  access,
  name,
  columns,
  action,
  empty,
  row,
}: {
  access: AccessList<T>;
  /** Names the list's texts: `access.<name>.summary` and `access.<name>.column.<column>`. */
  name: 'keys' | 'consumers';
  columns: string[];
  action?: ReactNode;
  empty: ReactNode;
  row: (item: T) => ReactNode;
}) {
  const t = useT();
  const { list, setPage, canManage, granting, closeGrant } = access;
  return (
    <>
      {list.data && list.data.meta.total > 0 && (
        <ListToolbar summary={t(`access.${name}.summary`, { count: list.data.meta.total })} action={action} />
      )}
      <PagedTable
        load={list}
        headers={[...columns.map((column) => t(`access.${name}.column.${column}`)), ...(canManage ? [t('table.actions')] : [])]}
        empty={empty}
        onPage={setPage}
        row={row}
      />
      {granting && (
        <GrantPlanModal
          owner={granting.owner}
          ownerPlan={granting.ownerPlan}
          onClose={closeGrant}
          onSaved={() => {
            closeGrant();
            void list.reload();
          }}
        />
      )}
    </>
  );
}
