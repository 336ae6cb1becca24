/**
 * A domain that may wrap only after its dots (`sub.<wbr>example.<wbr>com`), never inside a
 * label: "juniperhealthdi-rect.com" reads as another site.
 */
export function Domain({ name, className }: { name: string; className?: string }) {
  const labels = name.split('.');
  return (
    <span className={className ? `domain ${className}` : 'domain'}>
      {/* Text nodes straight in the span, so it still reads (and is found) as one word. */}
      {labels.map((label, index) => (index < labels.length - 1 ? [`${label}.`, <wbr key={index} />] : label))}
    </span>
  );
}
