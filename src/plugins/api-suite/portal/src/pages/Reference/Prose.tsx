import { Fragment } from 'react';

/**
 * The document's descriptions are CommonMark; the portal shows the part they use: paragraphs
 * (blank lines) and `code` spans, as text (never as HTML, so a description cannot inject markup).
 */
export function Prose({ text, className }: { text: string; className?: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((paragraph, index) => (
        <p key={index} className={className}>
          <Inline text={paragraph} />
        </p>
      ))}
    </>
  );
}

/** One line of description: its `code` spans as code. */
export function Inline({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return <>{parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>))}</>;
}
