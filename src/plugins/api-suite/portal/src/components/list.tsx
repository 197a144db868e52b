import { useState, type DependencyList, type ReactNode } from 'react';
import { useLoad, type Loaded, type LoadOptions } from '../../../shared/hooks';
import type { Page } from '../../../shared/http';
import { LoadProblem, Loading, Pager } from './feedback';

export type Paged<T> = Loaded<Page<T>> & { page: number; setPage(page: number): void };

/** The shared `useLoad` for one page of a list: the page number is kept here, and a new one loads its page. */
export function usePaged<T>(load: (page: number) => Promise<Page<T>>, deps: DependencyList = [], options?: LoadOptions): Paged<T> {
  const [page, setPage] = useState(1);
  const list = useLoad(() => load(page), [page, ...deps], options);
  return { ...list, page, setPage };
}

/**
 * A paged list as every list page shows it: the load's problem with a retry, a spinner until the
 * first page, `empty` when there is nothing at all, the rows and the pager.
 */
export function PagedList<T>({
  list,
  label,
  pagerLabel = label,
  empty,
  spinner = true,
  row,
}: {
  list: Paged<T>;
  /** The list's accessible name. */
  label: string;
  /** The pager's, when it is not the list's. */
  pagerLabel?: string;
  /** What stands for a list with nothing in it (false: nothing). */
  empty: ReactNode;
  spinner?: boolean;
  row(item: T): ReactNode;
}) {
  return (
    <>
      <LoadProblem problem={list.problem} retry={list.reload} />
      {spinner && list.loading && !list.data && <Loading />}
      {list.data && list.data.meta.total === 0 && empty}
      {list.data && list.data.data.length > 0 && (
        <ul className="list" aria-label={label}>
          {list.data.data.map((item) => row(item))}
        </ul>
      )}
      {list.data && (
        <Pager page={list.page} limit={list.data.meta.limit} total={list.data.meta.total} onPage={list.setPage} label={pagerLabel} />
      )}
    </>
  );
}
