#include "mongo/db/fts/stop_words.h"

#include <utility>

namespace mongo {
namespace fts {

namespace {

const char* const kEnglish[] = {
    "a",        "about",     "above",     "after",      "again",      "against",    "all",
    "almost",   "alone",     "along",     "already",    "also",       "although",   "always",
    "am",       "among",     "an",        "and",        "another",    "any",        "anybody",
    "anyone",   "anything",  "anywhere",  "are",        "aren't",     "around",     "as",
    "at",       "be",        "became",    "because",    "become",     "becomes",    "been",
    "before",   "behind",    "being",     "below",      "between",    "both",       "but",
    "by",       "can",       "can't",     "cannot",     "could",      "couldn't",   "did",
    "didn't",   "do",        "does",      "doesn't",    "doing",      "don't",      "done",
    "down",     "during",    "each",      "either",     "enough",     "even",       "ever",
    "every",    "everybody", "everyone",  "everything", "everywhere", "few",        "for",
    "from",     "further",   "had",       "hadn't",     "has",        "hasn't",     "have",
    "haven't",  "having",    "he",        "he'd",       "he'll",      "he's",       "her",
    "here",     "here's",    "hers",      "herself",    "him",        "himself",    "his",
    "how",      "how's",     "however",   "i",          "i'd",        "i'll",       "i'm",
    "i've",     "if",        "in",        "into",       "is",         "isn't",      "it",
    "it's",     "its",       "itself",    "just",       "let's",      "may",        "me",
    "might",    "more",      "most",      "much",       "must",       "mustn't",    "my",
    "myself",   "neither",   "never",     "no",         "nobody",     "none",       "nor",
    "not",      "nothing",   "now",       "nowhere",    "of",         "off",        "often",
    "on",       "once",      "only",      "or",         "other",      "others",     "ought",
    "our",      "ours",      "ourselves", "out",        "over",       "own",        "perhaps",
    "rather",   "same",      "shall",     "shan't",     "she",        "she'd",      "she'll",
    "she's",    "should",    "shouldn't", "since",      "so",         "some",       "somebody",
    "someone",  "something", "somewhere", "still",      "such",       "than",       "that",
    "that's",   "the",       "their",     "theirs",     "them",       "themselves", "then",
    "there",    "there's",   "these",     "they",       "they'd",     "they'll",    "they're",
    "they've",  "this",      "those",     "though",     "through",    "thus",       "to",
    "too",      "under",     "until",     "up",         "upon",       "us",         "very",
    "was",      "wasn't",    "we",        "we'd",       "we'll",      "we're",      "we've",
    "well",     "were",      "weren't",   "what",       "what's",     "whatever",   "when",
    "when's",   "whenever",  "where",     "where's",    "whether",    "which",      "while",
    "who",      "who's",     "whoever",   "whole",      "whom",       "whose",      "why",
    "why's",    "will",      "with",      "within",     "without",    "won't",      "would",
    "wouldn't", "yet",       "you",       "you'd",      "you'll",     "you're",     "you've",
    "your",     "yours",     "yourself",  "yourselves", nullptr};

const char* const kSpanish[] = {
    "a",        "al",      "algo",    "algunas", "algunos", "ante",  "antes", "como",    "con",
    "contra",   "cual",    "cuando",  "de",      "del",     "desde", "donde", "durante", "e",
    "el",       "ella",    "ellas",   "ellos",   "en",      "entre", "era",   "erais",   "eran",
    "eras",     "eres",    "es",      "esa",     "esas",    "ese",   "eso",   "esos",    "esta",
    "estaba",   "estado",  "estais",  "estamos", "estan",   "estar", "estas", "este",    "esto",
    "estos",    "estoy",   "fue",     "fueron",  "fui",     "ha",    "habia", "han",     "has",
    "hay",      "la",      "las",     "le",      "les",     "lo",    "los",   "mas",     "me",
    "mi",       "mis",     "mucho",   "muchos",  "muy",     "nada",  "ni",    "no",      "nos",
    "nosotros", "nuestra", "nuestro", "o",       "os",      "otra",  "otros", "para",    "pero",
    "poco",     "por",     "porque",  "que",     "quien",   "se",    "sea",   "ser",     "si",
    "sin",      "sobre",   "su",      "sus",     "tambien", "te",    "tengo", "ti",      "tiene",
    "todo",     "todos",   "tu",      "tus",     "un",      "una",   "uno",   "unos",    "vosotros",
    "y",        "ya",      "yo",      nullptr};

const char* const kFrench[] = {
    "a",    "ai",  "au",   "aux",  "avec",  "c",    "ce",    "ces",  "d",    "dans",  "de",
    "des",  "du",  "elle", "en",   "est",   "et",   "etait", "ete",  "etre", "eu",    "il",
    "ils",  "j",   "je",   "l",    "la",    "le",   "les",   "leur", "lui",  "m",     "ma",
    "mais", "me",  "meme", "mes",  "moi",   "mon",  "n",     "ne",   "nos",  "notre", "nous",
    "on",   "ont", "ou",   "par",  "pas",   "pour", "qu",    "que",  "qui",  "s",     "sa",
    "se",   "ses", "son",  "sont", "sur",   "t",    "ta",    "te",   "tes",  "toi",   "ton",
    "tu",   "un",  "une",  "vos",  "votre", "vous", "y",     nullptr};

const char* const kGerman[] = {
    "aber",  "alle",  "als", "also",  "am",   "an",    "auch",  "auf",   "aus",  "bei",   "bin",
    "bis",   "bist",  "da",  "damit", "dann", "das",   "dass",  "dein",  "dem",  "den",   "der",
    "des",   "dich",  "die", "dir",   "doch", "du",    "durch", "ein",   "eine", "einem", "einen",
    "einer", "eines", "er",  "es",    "euch", "fur",   "hat",   "hatte", "ich",  "ihm",   "ihn",
    "ihr",   "im",    "in",  "ist",   "ja",   "kein",  "mich",  "mir",   "mit",  "nach",  "nicht",
    "noch",  "nun",   "nur", "ob",    "oder", "ohne",  "sehr",  "sein",  "sich", "sie",   "sind",
    "so",    "uber",  "um",  "und",   "uns",  "unter", "vom",   "von",   "vor",  "war",   "was",
    "weil",  "wenn",  "wer", "wie",   "wir",  "wird",  "zu",    "zum",   "zur",  nullptr};

const char* const kItalian[] = {
    "a",    "ad",     "al",     "alla",  "alle", "anche", "che",   "chi",   "ci",    "come", "con",
    "da",   "dal",    "dalla",  "degli", "dei",  "del",   "della", "delle", "di",    "e",    "ed",
    "gli",  "ha",     "hanno",  "i",     "il",   "in",    "io",    "la",    "le",    "lei",  "lo",
    "loro", "lui",    "ma",     "mi",    "ne",   "nel",   "nella", "noi",   "non",   "o",    "per",
    "piu",  "quello", "questo", "se",    "si",   "sono",  "su",    "sul",   "sulla", "ti",   "tra",
    "tu",   "un",     "una",    "uno",   "voi",  nullptr};

const char* const kPortuguese[] = {
    "a",    "ao",   "aos",    "as",    "com",  "como", "da",     "das",   "de",   "dela", "dele",
    "do",   "dos",  "e",      "ela",   "ele",  "eles", "em",     "entre", "era",  "essa", "esse",
    "esta", "este", "eu",     "foi",   "ha",   "isso", "isto",   "ja",    "la",   "lhe",  "mais",
    "mas",  "me",   "meu",    "minha", "na",   "nao",  "nas",    "nem",   "no",   "nos",  "o",
    "os",   "ou",   "para",   "pela",  "pelo", "por",  "quando", "que",   "se",   "sem",  "ser",
    "seu",  "sua",  "tambem", "te",    "tem",  "um",   "uma",    "voce",  nullptr};

const char* const kDutch[] = {
    "aan",  "al",  "als", "bij",   "dan", "dat",  "de",  "die",  "dit", "door", "een",  "en",
    "er",   "had", "heb", "heeft", "het", "hij",  "hoe", "ik",   "in",  "is",   "je",   "kan",
    "maar", "me",  "met", "mij",   "na",  "niet", "nog", "nu",   "of",  "om",   "ook",  "op",
    "over", "te",  "tot", "uit",   "van", "voor", "was", "wat",  "we",  "wel",  "werd", "wie",
    "wij",  "zal", "ze",  "zich",  "zij", "zijn", "zo",  nullptr};

const char* const kDanish[] = {"af",  "alle",  "at",    "da",   "de",   "den", "der", "det", "dig",
                               "du",  "efter", "eller", "en",   "er",   "et",  "for", "fra", "han",
                               "har", "hun",   "i",     "ikke", "jeg",  "kan", "med", "men", "mig",
                               "ned", "nu",    "og",    "om",   "op",   "os",  "pa",  "sig", "som",
                               "til", "var",   "vi",    "at",   nullptr};

const char* const kNorwegian[] = {
    "at",  "av",  "da",  "de",  "den", "der", "det", "du",  "eg",  "ein",  "eit", "eller",
    "en",  "er",  "et",  "for", "fra", "han", "har", "hun", "i",   "ikke", "jeg", "kan",
    "med", "men", "meg", "og",  "om",  "pa",  "seg", "som", "til", "var",  "vi",  nullptr};

const char* const kSwedish[] = {
    "alla", "att", "av",   "da",  "de",  "den", "der", "det",  "du",   "efter", "eller", "en",
    "ett",  "for", "fran", "han", "har", "hon", "i",   "icke", "inte", "jag",   "kan",   "man",
    "med",  "men", "mig",  "och", "om",  "pa",  "sig", "som",  "till", "var",   "vi",    nullptr};

const char* const kFinnish[] = {"ei",   "en",   "ja",  "jos", "kuin", "mina", "mutta", "ne",
                                "niin", "nyt",  "ole", "oli", "on",   "ovat", "se",    "sina",
                                "tama", "etta", "he",  "me",  "te",   "han",  nullptr};

const char* const kHungarian[] = {"a",   "az",   "de",   "egy", "es",   "hogy", "ha",
                                  "is",  "meg",  "mint", "nem", "ez",   "azt",  "volt",
                                  "van", "csak", "mar",  "mi",  "vagy", nullptr};

const char* const kRomanian[] = {"a",      "ai",   "al", "ale", "ca",   "ce",  "cu",  "de",   "din",
                                 "e",      "este", "i",  "in",  "la",   "mai", "nu",  "o",    "pe",
                                 "pentru", "sa",   "se", "si",  "sunt", "un",  "una", nullptr};

const char* const kRussian[] = {"\xd0\xb8",                  // и
                                "\xd0\xb2",                  // в
                                "\xd0\xbd\xd0\xb5",          // не
                                "\xd0\xbd\xd0\xb0",          // на
                                "\xd1\x87\xd1\x82\xd0\xbe",  // что
                                "\xd1\x81",                  // с
                                "\xd0\xb0",                  // а
                                "\xd0\xbf\xd0\xbe",          // по
                                "\xd0\xba",                  // к
                                "\xd0\xbe",                  // о
                                nullptr};

const char* const kTurkish[] = {"ve",  "bir", "bu", "da", "de",   "icin",
                                "ile", "mi",  "ne", "o",  nullptr};

const std::pair<const char*, const char* const*> kLists[] = {
    {"danish", kDanish},         {"dutch", kDutch},       {"english", kEnglish},
    {"finnish", kFinnish},       {"french", kFrench},     {"german", kGerman},
    {"hungarian", kHungarian},   {"italian", kItalian},   {"norwegian", kNorwegian},
    {"portuguese", kPortuguese}, {"romanian", kRomanian}, {"russian", kRussian},
    {"spanish", kSpanish},       {"swedish", kSwedish},   {"turkish", kTurkish},
};

}  // namespace

const char* const* stopWordsFor(StringData language) {
    for (const auto& [name, list] : kLists)
        if (language == name)
            return list;
    return nullptr;
}

}  // namespace fts
}  // namespace mongo
