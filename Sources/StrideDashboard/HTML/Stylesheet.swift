/// The one stylesheet, inlined in every page: system fonts, light and dark colours from
/// `prefers-color-scheme`, and chart colours as classes so that dark mode reaches the SVG.
enum Stylesheet {
    static let css = """
        :root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1d1f21;--muted:#5c6166;--line:#d9dcdf;--card:#ffffff;--accent:#0b62c4;\
        --banner:#fff4d6;--banner-line:#e0b54a;--ok:#1d7a3a;--bad:#b3261e;\
        --watch:#2b6cb0;--phone:#d97706;--other:#6b7280;--summary:#8b5cf6;\
        --deep:#1e3a8a;--core:#3b82f6;--rem:#06b6d4;--unspecified:#93c5fd;--awake:#f97316;--inbed:#a3a3a3;\
        --band:#fca5a5;--average:#b91c1c;--marker:#0f766e;--fill:#16a34a;--over:#dc2626;--track:#e5e7eb;\
        --s1:#2b6cb0;--s2:#d97706;--s3:#16a34a;--s4:#9333ea;--s5:#db2777;--s6:#6b7280;\
        --z1:#93c5fd;--z2:#22c55e;--z3:#eab308;--z4:#f97316;--z5:#dc2626}
        @media (prefers-color-scheme:dark){:root{--bg:#121416;--fg:#e8eaed;--muted:#a3a9b0;--line:#3a3f44;--card:#1b1e21;\
        --accent:#7ab7ff;--banner:#3a2f10;--banner-line:#a67c1a;--ok:#5fd08a;--bad:#ff8a80;\
        --watch:#60a5fa;--phone:#fbbf24;--other:#9ca3af;--summary:#c4b5fd;\
        --deep:#6366f1;--core:#60a5fa;--rem:#22d3ee;--unspecified:#bfdbfe;--awake:#fb923c;--inbed:#737373;\
        --band:#7f1d1d;--average:#fca5a5;--marker:#5eead4;--fill:#22c55e;--over:#f87171;--track:#2f3439;\
        --s1:#60a5fa;--s2:#fbbf24;--s3:#4ade80;--s4:#c084fc;--s5:#f472b6;--s6:#9ca3af}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        a{color:var(--accent)}
        header.site{border-bottom:1px solid var(--line);background:var(--card)}
        header.site .inner,main,footer.site{max-width:1200px;margin:0 auto;padding:0 16px}
        header.site .inner{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 16px;padding-top:10px;padding-bottom:10px}
        .brand{font-weight:700;font-size:1.1rem;color:var(--fg);text-decoration:none}
        nav ul{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:0;padding:0}
        nav a{text-decoration:none;padding:2px 0}
        nav a[aria-current]{color:var(--fg);font-weight:600;border-bottom:2px solid var(--accent)}
        form.signout{margin:0 0 0 auto}
        @media (max-width:600px){header.site nav{order:3;flex-basis:100%}}
        form.signout button{font-size:0.85rem;padding:2px 10px}
        main{padding-top:8px;padding-bottom:32px}
        h1{font-size:1.6rem;margin:16px 0 8px}
        h2{font-size:1.3rem;margin:24px 0 8px}
        h3{font-size:1.1rem;margin:20px 0 8px}
        section.page{margin-bottom:40px}
        .lead,.note{color:var(--muted)}
        .banner{background:var(--banner);border:1px solid var(--banner-line);border-radius:8px;padding:10px 14px;margin:12px 0}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:12px 0}
        .card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px;min-width:0}
        .card .label{display:block;color:var(--muted);font-size:.85rem}
        .card .value{display:block;font-size:1.35rem;font-weight:600;overflow-wrap:anywhere}
        .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
        figure.chart{margin:0;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 12px;min-width:0}
        figure.chart figcaption{font-weight:600;margin-bottom:4px}
        .chart-svg{display:block;width:100%;height:auto;overflow:visible}
        .chart-svg text{font-size:12px;fill:var(--muted)}
        .chart-svg .unit{font-weight:600}
        .chart-svg .grid{stroke:var(--line);stroke-width:.6}
        .chart-svg .baseline{stroke:var(--muted);stroke-width:1}
        .watch{fill:var(--watch);background:var(--watch)}.phone{fill:var(--phone);background:var(--phone)}
        .other{fill:var(--other);background:var(--other)}.summary{fill:var(--summary);background:var(--summary)}
        .runs{fill:var(--watch);background:var(--watch)}
        .sample.faint{fill-opacity:.25}.won{fill-opacity:.85}.swatch.won{opacity:.85}.swatch.sample{opacity:.6}
        .day-links a{display:inline-block;margin:0 .6em .3em 0}.timeline figure.chart{max-width:760px;margin-bottom:12px}.measures a[aria-current]{font-weight:600;text-decoration:none}
        .deep{fill:var(--deep);background:var(--deep)}.core{fill:var(--core);background:var(--core)}
        .rem{fill:var(--rem);background:var(--rem)}.unspecified{fill:var(--unspecified);background:var(--unspecified)}
        .awake{fill:var(--awake);background:var(--awake)}.inbed{fill:var(--inbed);background:var(--inbed)}
        .band{fill:var(--band);background:var(--band)}
        .shoe1{fill:var(--s1);background:var(--s1)}.shoe2{fill:var(--s2);background:var(--s2)}.shoe3{fill:var(--s3);background:var(--s3)}
        .shoe4{fill:var(--s4);background:var(--s4)}.shoe5{fill:var(--s5);background:var(--s5)}.shoe6{fill:var(--s6);background:var(--s6)}
        .zone1{fill:var(--z1);background:var(--z1)}.zone2{fill:var(--z2);background:var(--z2)}.zone3{fill:var(--z3);background:var(--z3)}
        .zone4{fill:var(--z4);background:var(--z4)}.zone5{fill:var(--z5);background:var(--z5)}
        .line.fitness polyline{stroke:var(--s1);stroke-width:2}.fitness{fill:var(--s1);background:var(--s1)}
        .line.fatigue polyline{stroke:var(--s5);stroke-width:1.6}.fatigue{fill:var(--s5);background:var(--s5)}
        .line.form polyline{stroke:var(--s3);stroke-width:1.6;stroke-dasharray:4 3}.form{fill:var(--s3);background:var(--s3)}
        .line.average polyline,.line.average path{stroke:var(--average);stroke-width:1.6}
        .line.average .dot,.swatch.average{fill:var(--average);background:var(--average)}
        .line.marker polyline{stroke:var(--marker);stroke-width:1.6;stroke-dasharray:4 3}
        .line.marker .dot,.swatch.marker{fill:var(--marker);background:var(--marker)}
        .line.cumulative path{stroke:var(--accent);stroke-width:2}
        .line.cumulative .dot{fill:var(--accent)}
        .legend{display:flex;flex-wrap:wrap;gap:2px 14px;list-style:none;margin:6px 0 0;padding:0;font-size:.85rem;color:var(--muted)}
        .swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:5px;vertical-align:-1px}
        .empty-note{color:var(--muted);font-style:italic;margin:8px 0}
        details{margin-top:6px}
        summary{cursor:pointer;color:var(--accent)}
        .table-wrap{overflow-x:auto;max-width:100%}
        td.detail{min-width:16rem}
        table{border-collapse:collapse;width:100%;font-size:.92rem;margin:6px 0}
        caption{text-align:left;font-weight:600;padding:4px 0;color:var(--muted)}
        th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
        thead th{border-bottom:2px solid var(--line)}
        .when{white-space:nowrap}
        .num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        th.num{font-variant-numeric:normal}
        .progress{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px;margin:6px 0}
        .progress-bar{width:100%;max-width:420px;height:12px;display:block}
        .progress-bar .track{fill:var(--track)}.progress-bar .fill{fill:var(--fill)}.progress-bar .fill.over{fill:var(--over)}
        .progress-text{font-size:.9rem;color:var(--muted)}
        .shoes{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
        article.shoe{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px;min-width:0}
        article.shoe h2,article.shoe h3{font-size:1.1rem;margin:4px 0}
        .badge{display:inline-block;font-size:.78rem;font-weight:600;border-radius:999px;padding:1px 8px;margin-left:6px;border:1px solid var(--line);vertical-align:2px}
        .badge.default{border-color:var(--accent);color:var(--accent)}
        .badge.retired{color:var(--muted)}
        .badge.ok{border-color:var(--ok);color:var(--ok)}
        .badge.bad{border-color:var(--bad);color:var(--bad)}
        form{margin:8px 0}
        form.panel{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 14px}
        fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:8px 12px;align-items:end;min-width:0}
        legend{font-weight:600;padding:0;margin-bottom:6px}
        label{display:flex;flex-direction:column;font-size:.9rem;gap:2px;min-width:0}
        label.check{flex-direction:row;align-items:center;gap:6px}
        input,select,textarea,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:5px 8px;max-width:100%}
        textarea{width:100%;min-height:4em}
        label.wide{flex:1 1 100%}
        button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
        @media (prefers-color-scheme:dark){button{color:#0b1320}}
        .inline-forms{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:end}
        .inline-forms form{margin:0}
        ol.events{list-style:none;padding:0;margin:0}
        article.event{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:8px 12px;margin:10px 0;min-width:0}
        article.event:target{outline:2px solid var(--accent)}
        article.event h2,article.event h3{font-size:1rem;margin:2px 0 6px}
        dl.fields{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0;font-size:.9rem}
        dl.fields dt{color:var(--muted)}
        dl.fields dd{margin:0;min-width:0;overflow-wrap:anywhere}
        code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
        pre.payload{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
        .hash{overflow-wrap:anywhere;word-break:break-all}
        .pager{display:flex;flex-wrap:wrap;gap:8px 18px;margin:12px 0}
        ul.notes{padding-left:1.2em}
        .signin{max-width:420px;margin:48px auto}
        .notice{border-left:4px solid var(--ok);padding:8px 12px;margin:12px 0;background:var(--card);overflow-wrap:anywhere}
        .notice.refused{border-left-color:var(--bad)}
        .error{color:var(--bad);font-weight:600}
        footer.site{color:var(--muted);font-size:.85rem;padding-bottom:24px}
        """
}
