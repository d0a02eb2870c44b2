/**
 * A joint book list: its cover, title and intro with 分享, then its books in order, each with
 * its cover, author, one-line reason and link. A course or a column of the learning site is a
 * link in this window, as every learning-site link of the app (inside the native app its host
 * opens the app's own page); a page of the reading app opens in a new window.
 */
import type { Booklist, BooklistBook, BooklistLink } from '#shared/schemas.ts';
import { learningSiteUrl } from '../../../platform/app-links.ts';
import { clientConfig, PROVIDER_NAME } from '../../../platform/runtime-config.ts';
import { IconExternal } from '../../../ui/icons.tsx';
import { IconShare } from '../../../ui/icons-secondary.tsx';
import './booklist.css';

export function BooklistView({ list, onShare }: { list: Booklist; onShare: () => void }) {
  return (
    <div className="content-page booklist">
      <section className="card card--flush booklist-hero" aria-labelledby="booklist-title">
        <img
          className="booklist-hero__cover"
          src={list.cover.url}
          width={list.cover.width}
          height={list.cover.height}
          alt={`${list.title}封面`}
        />
        <div className="booklist-hero__body">
          <p className="booklist-hero__kicker">{PROVIDER_NAME} x 微信读书 · 读书会书单</p>
          <h1 id="booklist-title" className="booklist-hero__title">
            {list.title}
          </h1>
          {list.intro ? <p className="booklist-hero__intro">{list.intro}</p> : null}
          <div className="booklist-hero__meta">
            <span>共 {list.books.length} 本书</span>
            <button type="button" className="button button--ghost button--small" onClick={onShare}>
              <IconShare size={16} />
              分享
            </button>
          </div>
        </div>
      </section>
      <section className="card card--flush" aria-labelledby="booklist-books">
        <h2 id="booklist-books" className="section-title booklist__heading">
          书目
        </h2>
        <ol className="booklist-books">
          {list.books.map((book) => (
            <li key={book.id}>
              <BookItem book={book} />
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function BookItem({ book }: { book: BooklistBook }) {
  return (
    <article className="book" aria-labelledby={`book-${book.id}`}>
      <img className="book__cover" src={book.cover.url} width={book.cover.width} height={book.cover.height} alt={`《${book.title}》封面`} />
      <div className="book__text">
        <h3 id={`book-${book.id}`} className="book__title">
          {book.title}
        </h3>
        <p className="book__author">{book.author}</p>
        <p className="book__reason">{book.reason}</p>
        <BookLink link={book.link} />
      </div>
    </article>
  );
}

const LEARNING_KIND = { course: '配套课程', column: '配套专栏' } as const;

function BookLink({ link }: { link: BooklistLink }) {
  if (link.type === 'reading') {
    return (
      <a className="book__link" href={link.url} target="_blank" rel="noopener noreferrer">
        {link.title}
        <IconExternal size={14} />
        <span className="visually-hidden">（在新窗口打开）</span>
      </a>
    );
  }
  const target = link.type === 'course' ? ({ name: 'courseIntro', id: link.id } as const) : ({ name: 'columnIntro', id: link.id } as const);
  return (
    <a className="book__link" href={learningSiteUrl(target, clientConfig.learningSiteUrl)}>
      <span className="book__link-kind">{LEARNING_KIND[link.type]}</span>
      {link.title}
    </a>
  );
}
