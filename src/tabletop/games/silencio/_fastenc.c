/* The compiled observation encoder of Silencio (docs/rl.md "The compiled path"): the extension
 * `tabletop.games.silencio._fastenc`, built by setup.py (optional), used by `SilencioEncoder.encode_fast` in encoding.py.
 *
 * A line-by-line translation of the pure-Python `SilencioEncoder.encode_state`: the same fields read, the same
 * order of writes, every value computed in double and stored as float; tests/rl/test_encode.py compares the two (and
 * the view-based encoding) bit for bit on random states of every player count and option set. The state's fields
 * are fetched by the names the game declares in encoding.py, `ENCODED_FIELDS`, handed over once by `bind(names)`
 * (the enum below is their order there). The helpers are in src/tabletop/spaces/fastenc.h.
 */
#include "fastenc.h"

#define GAME "silencio"

/* the state fields read, in the order of ENCODED_FIELDS (encoding.py) */
enum {
    F_hands, F_known, F_fronts, F_oracle, F_box, F_rows, F_halves, F_shrines,
    F_deck, F_skip_dark, F_skip_light, F_green_only, F_random_play, F_tavern, F_tavern_open, F_tavern_count,
    F_said, F_phase, F_pending, F_to_move, F_turn, F_first,
    NFIELDS
};
static PyObject *FIELDS[NFIELDS];

BIND_FUNCTION

enum {
    SC_SIZE, SC_N, SC_NC, SC_PER, SC_MAXV, SC_HAND, SC_KNOWN, SC_FRONT, SC_ORACLE, SC_BOX, SC_ROWS, SC_LAST,
    SC_DARK, SC_SHRINES, SC_SIZES, SC_DECK, SC_EFF, SC_RAND, SC_TAV, SC_SAID, SC_PHASE, SC_PEND, SC_MOVE, SC_TURN,
    SC_FIRST, SC_LEFT, SC_EFFECT, SC_OVER, SC_PASSING, SC_OPENS_AT, SC_NPEND, SC_PENDSLOT /* then NPEND slots */
};


static void cards(Out *out, PyObject *cs, long long base, long long per, int *err) {
    Py_ssize_t m = LEN(cs);
    for (Py_ssize_t k = 0; k < m; k++) {
        long long c = geti(ITEM(cs, k), err);
        put(out, base + (c >> 4) * per + (c & 15), 1);
    }
}

/* silencio(state, seat, cfg, said_cache) -> bytearray, or None if a tavern phrase is not in said_cache */
static PyObject *encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) { PyErr_SetString(PyExc_TypeError, "encode(state, seat, cfg, said_cache)"); return NULL; }
    REQUIRE_BOUND()
    PyObject *state = args[0], *cache = args[3];
    int err = 0;
    long long me = geti(args[1], &err);
    if (err) return NULL;
    if (!PyDict_Check(cache)) { PyErr_SetString(PyExc_TypeError, "said_cache must be a dict"); return NULL; }
    Py_buffer cv;
    const long long *C;
    Py_ssize_t ncfg;
    if (get_cfg(args[2], &cv, &C, &ncfg) < 0) return NULL;
    Fields F = {.n = 0};
    Out out;
    PyObject *ba = NULL, *result = NULL;
    long long n = C[SC_N], nc = C[SC_NC], per = C[SC_PER];
    PyObject *hands, *known, *fronts, *oracle, *box, *rows, *halves, *shrines, *deck, *said, *tm, *v;
    if (!(hands = fetch(&F, state, FIELD(F_hands), 1)) || !(known = fetch(&F, state, FIELD(F_known), 1)) ||
        !(fronts = fetch(&F, state, FIELD(F_fronts), 1)) || !(oracle = fetch(&F, state, FIELD(F_oracle), 1)) ||
        !(box = fetch(&F, state, FIELD(F_box), 1)) || !(rows = fetch(&F, state, FIELD(F_rows), 1)) ||
        !(halves = fetch(&F, state, FIELD(F_halves), 1)) || !(shrines = fetch(&F, state, FIELD(F_shrines), 1)) ||
        !(deck = fetch(&F, state, FIELD(F_deck), 1)) || !(said = fetch(&F, state, FIELD(F_said), 1)))
        goto done;
    if (LEN(hands) != n || LEN(fronts) != n || LEN(rows) != 4 || LEN(halves) != 4) {
        PyErr_SetString(PyExc_ValueError, "silencio state does not match the encoder's player count");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (!SEQ(ITEM(hands, k)) || !SEQ(ITEM(fronts, k))) { PyErr_SetString(PyExc_TypeError, "hands"); goto done; }
    for (Py_ssize_t k = 0; k < 4; k++)
        if (!SEQ(ITEM(rows, k)) || !SEQ(ITEM(halves, k))) { PyErr_SetString(PyExc_TypeError, "rows"); goto done; }
    /* said: every phrase must be cached (the caller fills the cache and retries on None) */
    Py_ssize_t ns = LEN(said);
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *e = ITEM(said, k);
        if (!SEQ(e) || LEN(e) != 2) { PyErr_SetString(PyExc_TypeError, "said"); goto done; }
        PyObject *slots = PyDict_GetItemWithError(cache, ITEM(e, 1));
        if (!slots) {
            if (PyErr_Occurred()) goto done;
            result = Py_None;
            Py_INCREF(result);
            goto done;
        }
    }
    if (!(ba = new_out(&out, C[SC_SIZE]))) goto done;
    if (me < 0 || me >= n) { PyErr_SetString(PyExc_ValueError, "seat out of range"); goto done; }
    unsigned long long bit = 1ULL << me;
    cards(&out, ITEM(hands, me), C[SC_HAND] - 2, per, &err);
    for (long long q = 0; q < n; q++) {
        if (q == me) continue;
        long long base = C[SC_KNOWN] + (pymod(q - me, n) - 1) * nc - 2;
        PyObject *h = ITEM(hands, q);
        for (Py_ssize_t k = 0; k < LEN(h); k++) {
            long long c = geti(ITEM(h, k), &err);
            if (err) break;
            if (item(known, c, &err) & bit) put(&out, base + (c >> 4) * per + (c & 15), 1);
        }
    }
    for (long long q = 0; q < n; q++)
        cards(&out, ITEM(fronts, q), C[SC_FRONT] + pymod(q - me, n) * nc - 2, per, &err);
    cards(&out, oracle, C[SC_ORACLE] - 2, per, &err);
    cards(&out, box, C[SC_BOX] - 2, per, &err);
    for (long long i = 0; i < 4; i++) {
        PyObject *row = ITEM(rows, i);
        long long base = C[SC_ROWS] + i * per - 2;
        Py_ssize_t m = LEN(row);
        for (Py_ssize_t k = 0; k < m; k++) {
            long long x = geti(ITEM(row, k), &err);
            if (x >= 2) put(&out, base + x, 1);
        }
        if (m) {
            put(&out, C[SC_LAST] + i, (double)geti(ITEM(row, m - 1), &err) / (double)C[SC_MAXV]);
            PyObject *hv = ITEM(halves, i);
            if (!LEN(hv)) { PyErr_SetString(PyExc_IndexError, "halves"); goto done; }
            put(&out, C[SC_DARK] + i, truth(ITEM(hv, LEN(hv) - 1), &err) ? 1 : 0);
        }
    }
    for (Py_ssize_t i = 0; i < LEN(shrines); i++)
        if (truth(ITEM(shrines, i), &err)) put(&out, C[SC_SHRINES] + i, 1);
    long long size = 0;
    for (long long q = 0; q < n; q++) {
        Py_ssize_t len = LEN(ITEM(hands, q));
        put(&out, C[SC_SIZES] + pymod(q - me, n), (double)len / 12.0);
        size += len;
    }
    put(&out, C[SC_DECK], (double)LEN(deck) / (double)nc);
    if (!(v = fetch(&F, state, FIELD(F_skip_dark), 0))) goto done;
    put(&out, C[SC_EFF], getd(v, &err));
    if (!(v = fetch(&F, state, FIELD(F_skip_light), 0))) goto done;
    put(&out, C[SC_EFF] + 1, getd(v, &err));
    if (!(v = fetch(&F, state, FIELD(F_green_only), 0))) goto done;
    put(&out, C[SC_EFF] + 2, getd(v, &err));
    if (!(v = fetch(&F, state, FIELD(F_random_play), 0))) goto done;
    long long rp = geti(v, &err);
    if (rp >= 0) put(&out, C[SC_RAND] + pymod(rp - me, n), 1);
    if (!(v = fetch(&F, state, FIELD(F_tavern), 0))) goto done;
    if (truth(v, &err)) {
        put(&out, C[SC_TAV], 1);
        if (!(v = fetch(&F, state, FIELD(F_tavern_open), 0))) goto done;
        put(&out, C[SC_TAV] + 1, getd(v, &err));
        if (!(v = fetch(&F, state, FIELD(F_tavern_count), 0))) goto done;
        long long opens = C[SC_OPENS_AT] > 1 ? C[SC_OPENS_AT] : 1;
        put(&out, C[SC_TAV] + 2, (double)geti(v, &err) / (double)opens);
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        PyObject *e = ITEM(said, k);
        long long base = C[SC_SAID] + pymod(geti(ITEM(e, 0), &err) - me, n) * 9;
        PyObject *slots = PyDict_GetItemWithError(cache, ITEM(e, 1));
        if (!slots || !PyTuple_Check(slots)) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "said cache"); goto done; }
        if (PyTuple_GET_SIZE(slots) == 2) {
            put(&out, base + geti(PyTuple_GET_ITEM(slots, 0), &err), getd(PyTuple_GET_ITEM(slots, 1), &err));
        } else {
            long long a = geti(PyTuple_GET_ITEM(slots, 0), &err), b = geti(PyTuple_GET_ITEM(slots, 1), &err);
            for (long long j = base + a; j < base + b; j++) put(&out, j, 0);
            put(&out, base + geti(PyTuple_GET_ITEM(slots, 2), &err), 1);
        }
    }
    if (!(v = fetch(&F, state, FIELD(F_phase), 0))) goto done;
    long long phase = geti(v, &err);
    put(&out, C[SC_PHASE] + phase, 1);
    if (phase == C[SC_EFFECT]) {
        if (!(v = fetch(&F, state, FIELD(F_pending), 0))) goto done;
        long long p = geti(v, &err), np = C[SC_NPEND];
        if (p < 0) p += np;
        if (p < 0 || p >= np) { PyErr_SetString(PyExc_IndexError, "pending"); goto done; }
        long long k = C[SC_PENDSLOT + p];
        if (k >= 0) put(&out, C[SC_PEND] + k, 1);
    }
    if (!(tm = fetch(&F, state, FIELD(F_to_move), 0))) goto done;
    if (tm != Py_None) put(&out, C[SC_MOVE] + pymod(geti(tm, &err) - me, n), 1);
    if (phase != C[SC_OVER] && phase != C[SC_PASSING]) {
        if (!(v = fetch(&F, state, FIELD(F_turn), 0))) goto done;
        put(&out, C[SC_TURN] + pymod(geti(v, &err) - me, n), 1);
    }
    if (!(v = fetch(&F, state, FIELD(F_first), 0))) goto done;
    put(&out, C[SC_FIRST] + pymod(geti(v, &err) - me, n), 1);
    for (long long q = 0; q < n; q++) size += LEN(ITEM(fronts, q));
    put(&out, C[SC_LEFT], (double)size / (double)nc);
    if (!err && !out.err) {
        result = ba;
        ba = NULL;
    }
done:
    Py_XDECREF(ba);
    release(&F);
    PyBuffer_Release(&cv);
    if (result == NULL && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "silencio encoder failed");
    return result;
}

static PyMethodDef methods[] = {
    {"encode", (PyCFunction)(void (*)(void))encode, METH_FASTCALL, "encode(state, seat, cfg, said_cache) -> bytearray of float32, or None if a tavern phrase is not cached"},
    {"bind", (PyCFunction)bind, METH_O,
     "bind(names): the names of the state fields read, ENCODED_FIELDS' names in order (once, at import)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastenc", "The compiled observation encoder of Silencio (see its encoding.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastenc(void) { return PyModule_Create(&module); }
