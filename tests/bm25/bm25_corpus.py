"""Generated corpora and queries for the bm25 tests."""
import random


def make_docs(n, words=300, seed=1, vocab=3000):
    """Docs of Zipf-distributed words, with stemmer edge cases and noise."""
    rnd = random.Random(seed)
    base = ["key", "keys", "day", "way", "play", "played", "try", "tries",
            "running", "runs", "notes", "display", "array", "fly", "sky"]
    letters = "bcdfgklmnprstaeiouy"
    vocab_words = base + ["".join(rnd.choice(letters) for _ in range(rnd.randint(3, 9)))
                          for _ in range(vocab)]
    weights = [1 / (i + 1) for i in range(len(vocab_words))]

    def text(k):
        return " ".join(rnd.choices(vocab_words, weights, k=k))

    docs = []
    for i in range(n):
        docs.append({
            "ref": f"notes/n{i:04d}.md" + ("#sec" if i % 9 == 0 else ""),
            "title": text(rnd.randint(1, 6)).title(),
            "aliases": text(rnd.randint(1, 3)) if rnd.random() < 0.3 else "",
            "headings": text(rnd.randint(0, 10)),
            "body": text(rnd.randint(words // 3, words)) + " -- the Éclair, “quoted” co-op 😀x.",
        })
    docs.append({"ref": "empty", "title": "", "aliases": "", "headings": "", "body": ""})
    return docs, vocab_words


def make_queries(vocab_words, n, seed=7):
    rnd = random.Random(seed)
    pool = vocab_words[:400]
    out = []
    for i in range(n):
        q = rnd.sample(pool, rnd.randint(1, 4))
        if i % 7 == 0:
            q.append(q[0])             # repeated word: query vector weight 2
        if i % 11 == 0:
            q.append("zqxjunknown")    # absent term
        if i % 13 == 0:
            q[0] = q[0].upper()
        out.append(q)
    return out


# (title, aliases, headings, body) in many scripts: the analysis and index parity corpus.
MULTILINGUAL = [
    ("备份仓库", "备份你的仓库", "同步 设置", "把仓库复制到别的地方：git 仓库、第二块硬盘或备份服务。𠀋𠀌 extension B"),
    ("取消我的订阅", "管理订阅", "账户", "在账户页面管理你的订阅、付款方式和发票。"),
    ("同期のトラブルシューティング", "同期の問題を解決", "ｶﾀｶﾅ ﾃｽﾄ", "同期が止まったら、まずログを確認してください。ひらがな、カタカナ、漢字。"),
    ("동기화 문제 해결", "동기화 오류", "속성", "동기화가 멈추면 먼저 로그를 확인하세요. ᄀᄁ 자모"),
    ("عداد الكلمات", "عدد الكلمات", "الخصائص", "يعرض شريط الحالة عدد الكَلِمَات وعدد الأحرف ٣ ١٢٣"),
    ("סנכרון ללא ממשק", "סנכרון", "מאפיינים", "הסנכרון שומר על הכספת זהה בכל המכשירים שָׁלוֹם"),
    ("همگام‌سازی", "همگام سازی", "ویژگی‌ها", "همگام‌سازی گاوصندوق را روی همه دستگاه‌ها یکسان نگه می‌دارد ۱۲۳"),
    ("Синхронизация", "Синк", "Ёлка", "Синхронизация поддерживает хранилище одинаковым; ёлка, Ёлка, ЁЛКА"),
    ("Синхронізація", "Синхронізація нотаток", "ґанок", "Синхронізація підтримує сховище однаковим на всіх пристроях."),
    ("सिंक", "सिंक सेवा", "गुण", "सिंक आपके सभी उपकरणों पर तिजोरी को एक जैसा रखता है ०१२"),
    ("ซิงค์", "การซิงค์ข้อมูล", "คุณสมบัติ", "การซิงค์ทำให้ห้องนิรภัยเหมือนกันในทุกอุปกรณ์ ๑๒๓"),
    ("ສະບາຍດີ", "ພາສາລາວ", "ລາວ", "ພາສາລາວ ເປັນພາສາ"),
    ("សមកាលកម្ម", "ធ្វើសមកាលកម្មឯកសារ", "ឯកសារ", "សមកាលកម្មរក្សាឯកសាររបស់អ្នកឱ្យដូចគ្នា។"),
    ("မြန်မာစာ", "ဗမာ", "စာ", "မြန်မာဘာသာစကား"),
    ("Ιδιότητες", "ΣΑΣ ΟΔΟΣ", "Μεταδεδομένα", "Οι ιδιότητες είναι πεδία στην αρχή μιας σημείωσης. ΌΣΟΣ ὀδυσσεύς"),
    ("Straße Café Malmö", "Søgning Æblegrød", "Œuvre Łódź Þór Đà Nẵng", "İstanbul ǅemal ﬁle ﬂow ＡＢＣ １２３ ½ ² x_y co-op don't"),
    ("Dépannage de la synchronisation", "Problèmes", "Métadonnées", "Quand la synchronisation s'arrête, naïve coöperate"),
    ("Eigenschaften", "Metadaten", "Fehlerbehebung", "Wenn die Synchronisierung stoppt, prüfe zuerst das Protokoll. ÄÖÜ äöü"),
    ("Python入門", "2024年", "C++ and C#", "mixed Python入門 text 2024年 with 😀 emoji and 𝐁𝐨𝐥𝐝"),
    ("e\u0301 decomposed", "a\u0308", "\u0300lead", "combining e\u0301 vs é and \u1e9e capital sharp s"),
]
