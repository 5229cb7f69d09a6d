/// The pages' one stylesheet, inline in every page so a page is a single file to post or publish.
///
/// Hangul is set in the CJK faces each system has (Noto Sans CJK KR on Linux, Apple SD Gothic Neo, Malgun Gothic)
/// before the generic `sans-serif`; light and dark follow `prefers-color-scheme`; the list and grid layouts switch
/// with two radio buttons and `:checked`, so a page needs no script. Rank changes keep the apps' colours: 신작 pink,
/// ▲ red, ▼ blue.
package enum PageStyle {
    package static let css = """
        :root{color-scheme:light dark;--bg:#f6f6f8;--card:#fff;--text:#1c1c1e;--dim:#6c6c70;--line:#dcdce0;\
        --up:#d70015;--down:#0040dd;--new:#c2255c;--accent:#0058d0;--on-accent:#fff;\
        font-family:"Noto Sans CJK KR","Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic","Nanum Gothic",\
        system-ui,sans-serif;line-height:1.45}
        @media (prefers-color-scheme:dark){:root{--bg:#000;--card:#1c1c1e;--text:#f2f2f7;--dim:#98989f;\
        --line:#38383a;--up:#ff6961;--down:#64a8ff;--new:#ff7eb3;--accent:#5eaeff;--on-accent:#000}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--text)}
        main{max-width:1080px;margin:0 auto;padding:16px}
        h1{font-size:1.35rem;margin:0 0 4px;overflow-wrap:anywhere}
        .subheading{margin:0 0 4px;color:var(--dim)}
        .source{margin:0 0 12px;color:var(--dim);font-size:.8rem}
        .layouts{display:flex;gap:6px;margin:0 0 12px}
        .layouts label{padding:4px 12px;border:1px solid var(--line);border-radius:14px;cursor:pointer;\
        font-size:.85rem;color:var(--dim)}
        input[name=layout]{position:absolute;opacity:0;pointer-events:none}
        #layout-list:checked~.layouts label[for=layout-list],#layout-grid:checked~.layouts label[for=layout-grid]\
        {background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
        input[name=layout]:focus-visible~.layouts{outline:2px solid var(--accent);outline-offset:2px}
        .entries{list-style:none;margin:0;padding:0;display:grid;gap:8px}
        .entry{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px;\
        display:grid;grid-template-columns:auto auto auto 1fr;grid-template-areas:"poster rank change title" \
        "poster rank change facts";column-gap:10px;align-items:baseline;min-width:0}
        .entry.plain{grid-template-columns:1fr;grid-template-areas:"title" "facts"}
        .rank{grid-area:rank;font-size:1.3rem;font-weight:700;min-width:1.6em;text-align:right}
        .change{grid-area:change;font-size:.85rem;min-width:2.6em;font-variant-numeric:tabular-nums}
        .change.up{color:var(--up)}.change.down{color:var(--down)}.change.new{color:var(--new);font-weight:700}
        .change.same{color:var(--dim)}
        .title{grid-area:title;font-weight:600;overflow-wrap:anywhere;min-width:0}
        .facts{grid-area:facts;margin:2px 0 0;display:flex;flex-wrap:wrap;gap:2px 14px;font-size:.85rem;\
        color:var(--dim);min-width:0}
        .facts div{display:flex;gap:4px}.facts dt{margin:0}.facts dd{margin:0;color:var(--text);\
        font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
        .entry .poster.placeholder{display:none}
        .entry img.poster{grid-area:poster;align-self:center;width:36px;aspect-ratio:2/3;object-fit:cover;\
        border-radius:4px}
        #layout-grid:checked~.entries{grid-template-columns:repeat(auto-fill,minmax(150px,1fr))}
        #layout-grid:checked~.entries .entry{grid-template-columns:auto 1fr;grid-template-areas:"poster poster" \
        "rank change" "title title" "facts facts";grid-template-rows:auto auto auto 1fr;align-items:baseline;\
        align-content:start;row-gap:4px}
        #layout-grid:checked~.entries .poster{display:block;grid-area:poster;align-self:start;width:100%;\
        aspect-ratio:2/3;object-fit:cover;border-radius:6px;background:var(--line)}
        #layout-grid:checked~.entries .rank{text-align:left}
        #layout-grid:checked~.entries .facts{flex-direction:column}
        .detail{display:grid;gap:16px}
        .detail .poster{display:block;width:min(240px,60vw);aspect-ratio:2/3;object-fit:cover;border-radius:8px;\
        background:var(--line)}
        .fields{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0}
        .fields dt{color:var(--dim)}.fields dd{margin:0;overflow-wrap:anywhere}
        @media (min-width:700px){.detail{grid-template-columns:auto 1fr;align-items:start}}
        .days{list-style:none;margin:0;padding:0;display:grid;gap:6px}
        .days li{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px}
        .days a{color:var(--accent);font-weight:600;text-decoration:none}
        .back{display:inline-block;margin:0 0 8px;color:var(--accent);text-decoration:none;font-size:.9rem}
        .days .top{color:var(--dim);margin-left:8px;overflow-wrap:anywhere}
        footer{max-width:1080px;margin:0 auto;padding:0 16px 24px;color:var(--dim);font-size:.75rem}
        """
}
