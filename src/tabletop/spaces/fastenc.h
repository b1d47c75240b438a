/* The helpers of the compiled observation encoders (docs/rl.md "The compiled path"), included by each game's
 * encoder, `src/tabletop/games/<game>/_fastenc.c` (the extension `tabletop.games.<game>._fastenc`, built by setup.py
 * beside the game's `encoding` part).
 *
 * An encoder writes a zeroed-then-filled bytearray of float32 values (`new_out`, `put`: every index checked, every
 * value computed in double and stored as float, as the Python encoders' writes into array("f") do, so both give the
 * same bits) from the state's fields, fetched by name (`fetch`). The names are not the C code's own: the game
 * declares the fields its encoders read, `ENCODED_FIELDS` in its encoding.py, and hands their names to the
 * extension once with `bind(names)`; the C code refers to them by their position in that declaration (an enum in
 * the same order, `NFIELDS` long, checked by `bind_fields`). Offsets and lookup tables come from the Python encoder
 * as one array("q") (`get_cfg`).
 */
#ifndef TABLETOP_FASTENC_H
#define TABLETOP_FASTENC_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SEQ(o) (PyList_Check(o) || PyTuple_Check(o))
#define LEN(o) PySequence_Fast_GET_SIZE(o)
#define ITEM(o, i) PySequence_Fast_GET_ITEM(o, i)

typedef struct {
    float *o;
    Py_ssize_t size;
    int err;
} Out;

static inline void put(Out *out, long long i, double v) {
    if (i < 0 || i >= out->size) {
        if (!out->err) PyErr_Format(PyExc_IndexError, "observation index %lld out of range", i);
        out->err = 1;
        return;
    }
    out->o[i] = (float)v;
}

static inline long long geti(PyObject *x, int *err) {
    long long v = PyLong_AsLongLong(x);
    if (v == -1 && PyErr_Occurred()) *err = 1;
    return v;
}

static inline long long item(PyObject *seq, Py_ssize_t i, int *err) {
    if (i < 0) i += LEN(seq);
    if (i < 0 || i >= LEN(seq)) {
        if (!*err) PyErr_SetString(PyExc_IndexError, "state field index out of range");
        *err = 1;
        return 0;
    }
    return geti(ITEM(seq, i), err);
}

static inline int truth(PyObject *x, int *err) {
    int t = PyObject_IsTrue(x);
    if (t < 0) { *err = 1; return 0; }
    return t;
}

static inline double getd(PyObject *x, int *err) {
    double v = PyFloat_AsDouble(x);
    if (v == -1.0 && PyErr_Occurred()) *err = 1;
    return v;
}

static inline long long pymod(long long a, long long n) {
    long long r = a % n;
    return r < 0 ? r + n : r;
}

/* bit x of a Python int (any size, x >= 0) */
static inline int testbit(PyObject *v, long long x, int *err) {
    if (x < 0) return 0;
    if (x < 64) {
        unsigned long long m = PyLong_AsUnsignedLongLongMask(v);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) { *err = 1; return 0; }
        return (int)((m >> x) & 1);
    }
    PyObject *sh = PyLong_FromLongLong(x);
    if (!sh) { *err = 1; return 0; }
    PyObject *r = PyNumber_Rshift(v, sh);
    Py_DECREF(sh);
    if (!r) { *err = 1; return 0; }
    unsigned long long m = PyLong_AsUnsignedLongLongMask(r);
    Py_DECREF(r);
    if (m == (unsigned long long)-1 && PyErr_Occurred()) { *err = 1; return 0; }
    return (int)(m & 1);
}

/* ---- attribute fetching ------------------------------------------------------------------------------------ */

#define MAXF 48
typedef struct {
    PyObject *v[MAXF];
    int n;
} Fields;

static inline PyObject *fetch(Fields *f, PyObject *state, PyObject *name, int need_seq) {
    PyObject *v = PyObject_GetAttr(state, name);
    if (!v) return NULL;
    f->v[f->n++] = v;
    if (need_seq && !SEQ(v)) {
        PyErr_Format(PyExc_TypeError, "state field %U is not a list or tuple", name);
        return NULL;
    }
    return v;
}

static inline void release(Fields *f) {
    for (int i = 0; i < f->n; i++) Py_DECREF(f->v[i]);
    f->n = 0;
}

static inline int get_cfg(PyObject *obj, Py_buffer *view, const long long **cfg, Py_ssize_t *n) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "cfg must be an array('q')");
        return -1;
    }
    *cfg = (const long long *)view->buf;
    *n = view->len / 8;
    return 0;
}

static inline PyObject *new_out(Out *out, long long size) {
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(size * 4));
    if (!ba) return NULL;
    memset(PyByteArray_AS_STRING(ba), 0, (size_t)(size * 4));
    out->o = (float *)PyByteArray_AS_STRING(ba);
    out->size = (Py_ssize_t)size;
    out->err = 0;
    return ba;
}


typedef struct {
    const long long *t;
    long long n;
} Table;

static inline long long look(Table tb, long long x, int *err) {
    if (x < 0) x += tb.n;
    if (x < 0 || x >= tb.n) {
        if (!*err) PyErr_SetString(PyExc_IndexError, "encoder table lookup");
        *err = 1;
        return 0;
    }
    return tb.t[x];
}

/* rank index of specialist x (the encoder's rank_index dict): -1 if none */
static inline long long rank_of(Table ri, long long x) { return (x >= 0 && x < ri.n) ? ri.t[x] : -1; }

static inline PyObject *seq_at(PyObject *seq, Py_ssize_t i, int *err) {
    if (i < 0 || i >= LEN(seq)) { if (!*err) PyErr_SetString(PyExc_IndexError, "seat"); *err = 1; return NULL; }
    PyObject *x = ITEM(seq, i);
    if (!SEQ(x)) { if (!*err) PyErr_SetString(PyExc_TypeError, "per-seat field is not a list"); *err = 1; return NULL; }
    return x;
}

/* ---- the field names, from the game's declaration ------------------------------------------------------------ */

/* Store the interned `names` (a tuple of n str, the game's ENCODED_FIELDS in order) into fields[0..n). */
static inline int bind_fields(PyObject *names, PyObject **fields, Py_ssize_t n, const char *game) {
    if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) != n) {
        PyErr_Format(PyExc_ValueError, "%s: bind() takes a tuple of the %zd names of ENCODED_FIELDS, in order", game,
                     n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, i))) {
            PyErr_Format(PyExc_TypeError, "%s: field name %zd is not a str", game, i);
            return -1;
        }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(names, i);
        Py_INCREF(s);
        PyUnicode_InternInPlace(&s);
        Py_XSETREF(fields[i], s);
    }
    return 0;
}

/* The module's bind(names) and the check at the top of its encoder, for a game C file that defines
   `static PyObject *FIELDS[NFIELDS]` and GAME. */
#define BIND_FUNCTION                                                                                               \
    static PyObject *bind(PyObject *self, PyObject *names) {                                                       \
        if (bind_fields(names, FIELDS, NFIELDS, GAME) < 0) return NULL;                                            \
        Py_RETURN_NONE;                                                                                            \
    }
#define REQUIRE_BOUND()                                                                                             \
    if (!FIELDS[0]) {                                                                                               \
        PyErr_SetString(PyExc_RuntimeError, GAME ": the field names are not bound (bind(names) first)");            \
        return NULL;                                                                                               \
    }
#define FIELD(k) FIELDS[k]

#endif
