/* The compiled mask of the action spaces (tabletop.spaces.actions, `ActionSpace.mask_of`): the extension
 * `tabletop.spaces._fastmask`, built by setup.py (optional; without it the same masks come from Python). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define SEQ(o) (PyList_Check(o) || PyTuple_Check(o))
#define LEN(o) PySequence_Fast_GET_SIZE(o)
#define ITEM(o, i) PySequence_Fast_GET_ITEM(o, i)

/* ---- masks ------------------------------------------------------------------------------------------------- */

/* mask(n, indices) -> bytearray of n bytes, 1 at each index (ActionSpace.mask_of) */
static PyObject *mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) { PyErr_SetString(PyExc_TypeError, "mask(n, indices)"); return NULL; }
    Py_ssize_t n = PyLong_AsSsize_t(args[0]);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0) { PyErr_SetString(PyExc_ValueError, "mask size must be >= 0"); return NULL; }
    PyObject *idx = args[1];
    if (!SEQ(idx)) { PyErr_SetString(PyExc_TypeError, "indices must be a list or tuple"); return NULL; }
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, n);
    if (!ba) return NULL;
    char *buf = PyByteArray_AS_STRING(ba);
    memset(buf, 0, (size_t)n);
    for (Py_ssize_t k = 0; k < LEN(idx); k++) {
        Py_ssize_t i = PyLong_AsSsize_t(ITEM(idx, k));
        if (i == -1 && PyErr_Occurred()) { Py_DECREF(ba); return NULL; }
        if (i < 0) i += n;
        if (i < 0 || i >= n) {
            Py_DECREF(ba);
            PyErr_SetString(PyExc_IndexError, "bytearray index out of range");
            return NULL;
        }
        buf[i] = 1;
    }
    return ba;
}

static PyMethodDef methods[] = {
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL, "mask(n, indices) -> bytearray, 1 at each index"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastmask", "The compiled mask of the action spaces (see tabletop.spaces.actions).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastmask(void) { return PyModule_Create(&module); }
