"""Every scenario of features/ runs here, against the driver named by --berserk-driver."""

from pytest_bdd import scenarios

scenarios("../features")
