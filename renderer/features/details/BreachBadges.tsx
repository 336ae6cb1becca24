import { Icon } from '../../components/Icon.tsx';

/** What marks a breach wherever it is named (its row, its detail): sensitive, new since the person last looked, gone from the catalog. */
export function BreachBadges(props: { isSensitive: boolean; isNew: boolean; removedFromCatalogAt?: string | undefined }) {
  return (
    <>
      {props.isSensitive ? (
        <span className="badge badge-sensitive">
          <Icon name="lock" size={12} />
          Sensitive
        </span>
      ) : null}
      {props.isNew ? <span className="badge badge-new">New</span> : null}
      {props.removedFromCatalogAt ? <span className="badge badge-removed">Removed from the catalog</span> : null}
    </>
  );
}
